// Every handler runs through `guarded`: an internal error is logged and answered with the empty result,
// so a bug in one feature never takes the server (or the editor's request) down.
export type Logger = (message: string) => void;

export function describeError(error: unknown): string {
  return error instanceof Error ? error.stack ?? error.message : String(error);
}

export function guarded<P extends unknown[], R>(
  logError: Logger,
  name: string,
  fallback: () => R,
  handler: (...args: P) => R | Promise<R>,
): (...args: P) => Promise<R> {
  return async (...args: P) => {
    try {
      return await handler(...args);
    } catch (error) {
      logError(`[agent-lens] ${name} failed: ${describeError(error)}`);
      return fallback();
    }
  };
}

/** Same as `guarded` for notification handlers (nothing to answer). */
export function guardedNotification<P extends unknown[]>(logError: Logger, name: string, handler: (...args: P) => void | Promise<void>): (...args: P) => void {
  return (...args: P) => {
    try {
      const result = handler(...args);
      if (result) result.catch((error: unknown) => logError(`[agent-lens] ${name} failed: ${describeError(error)}`));
    } catch (error) {
      logError(`[agent-lens] ${name} failed: ${describeError(error)}`);
    }
  };
}
