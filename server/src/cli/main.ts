// agent-lens: the command-line face of the analysis (check) and the harness (run).
const USAGE = `usage: agent-lens <command> [options]

commands:
  check [paths...]   report diagnostics for agent definitions (see --help on the command)
  run [files...]     run eval files in isolation and report results
  diff A B           the first divergence per test between two saved \`run --json\` outputs
  merge-reports DIR  one report (and one coverage) from the blob reports of sharded runs
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "check":
      return (await import("./check-start")).startCheck(rest);
    case "run": {
      // The child for `run FILE` starts first, before the harness loads (run-early.ts); whatever happens
      // next, it does not outlive the command unless a run took it.
      const early = (await import("./run-early")).startEarlyForArgs(rest);
      try {
        const run = await (await import("./compile-cache")).loadRunCommand();
        const code = await run.runRun(rest, early);
        run.save();
        return code;
      } finally {
        await early?.discardUnused();
      }
    }
    case "diff":
      return (await import("./diff")).runDiff(rest);
    case "merge-reports":
      return (await import("./merge-reports")).runMergeReports(rest);
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(USAGE);
      return 0;
    case "--version":
      process.stdout.write("agent-lens 0.1.0\n");
      return 0;
    default:
      process.stderr.write(command ? `agent-lens: unknown command "${command}"\n\n${USAGE}` : USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    process.stderr.write(`agent-lens: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
