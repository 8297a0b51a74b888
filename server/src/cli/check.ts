// Placeholder until the check command lands (see the issue that builds it).
export async function runCheck(_argv: string[]): Promise<number> {
  process.stderr.write("agent-lens check: not built yet\n");
  return 2;
}
