// The text of anything thrown by user code or a provider.

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
