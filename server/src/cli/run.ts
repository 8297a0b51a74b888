// Placeholder until the run command lands (see the issue that builds it).
export async function runRun(_argv: string[]): Promise<number> {
  process.stderr.write("agent-lens run: not built yet\n");
  return 2;
}
