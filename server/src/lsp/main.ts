// agent-lens-server: the language server's entry point. The transport comes from the command line
// (`--stdio`, `--node-ipc`, `--socket=<port>`), as vscode-languageserver reads it.
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { describeError } from "./guard";
import { boundHeapGrowth, collectWhenIdle } from "./heap";
import { startServer } from "./server";
import { FramingWatch, ShutdownGate } from "./transport-guards";

const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) {
  process.stdout.write("usage: agent-lens-server --stdio | --node-ipc | --socket=<port>\n");
  process.exit(0);
}
if (argv.includes("--version")) {
  process.stdout.write("agent-lens-server 0.1.0\n");
  process.exit(0);
}

const gate = new ShutdownGate();
const connection = createConnection(ProposedFeatures.all, { messageStrategy: gate });
gate.install(connection);

// Last line of defence: a bug in a timer or a promise nobody awaited is logged, never fatal.
process.on("uncaughtException", (error) => connection.console.error(`[agent-lens] uncaught: ${describeError(error)}`));
process.on("unhandledRejection", (reason) => connection.console.error(`[agent-lens] unhandled rejection: ${describeError(reason)}`));

boundHeapGrowth();
startServer(connection);
collectWhenIdle();

if (argv.includes("--stdio")) {
  // Attached after the connection listens, so both readers see every byte from the start. A message
  // that stops arriving ends the process after 30 s without data (AGENT_LENS_LSP_STALL_TIMEOUT_MS).
  const stallTimeoutMs = Number(process.env.AGENT_LENS_LSP_STALL_TIMEOUT_MS) || undefined;
  const watch = new FramingWatch((reason) => {
    process.stderr.write(`agent-lens-server: framing error on stdin (${reason}); exiting so the client can restart the server\n`);
    process.exit(1);
  }, { stallTimeoutMs });
  process.stdin.on("data", (chunk: Buffer) => watch.push(chunk));
  process.stdin.on("end", () => watch.dispose());
}
