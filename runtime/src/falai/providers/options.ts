// What every model provider takes (upstream's `apiKey`, `model`, `backupModels`, `retryConfig`), checked when it is
// constructed: a missing key or model, an unknown option or a retry setting that cannot work throws there, before
// any call. The option types are written out here (not imported from the vendors' SDKs) so a workspace's
// TypeScript needs none of the SDKs installed to check an eval file.

/** `timeout`: milliseconds per attempt (default 60 000); `retries`: attempts per model in total (default 3). */
export interface RetryConfig {
  timeout?: number | undefined;
  retries?: number | undefined;
}

export interface ProviderOptionsBase {
  apiKey: string;
  /** The model to call first. */
  model: string;
  /** Tried in order when a model fails with a transient error (rate limit, overload, 5xx). */
  backupModels?: string[] | undefined;
  retryConfig?: RetryConfig | undefined;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RETRIES = 3;

export interface CheckedOptions {
  apiKey: string;
  model: string;
  backupModels: string[];
  timeoutMs: number;
  retries: number;
}

const BASE_KEYS = ["apiKey", "model", "backupModels", "config", "retryConfig"];

/**
 * Upstream's construction errors ("<vendor> API key is required", "Model is required. Example: …"), plus ours for
 * an option this runtime would otherwise ignore. Messages never quote the key.
 */
export function checkOptions(className: string, label: string, example: string, options: unknown, extraKeys: readonly string[] = []): CheckedOptions {
  if (!options || typeof options !== "object" || Array.isArray(options)) throw new Error(`${label} API key is required`);
  const o = options as Record<string, unknown>;
  if (typeof o.apiKey !== "string" || !o.apiKey) throw new Error(`${label} API key is required`);
  if (typeof o.model !== "string" || !o.model.trim()) throw new Error(`Model is required. Example: ${example}`);
  const known = new Set([...BASE_KEYS, ...extraKeys]);
  for (const key of Object.keys(o)) {
    if (!known.has(key)) throw new Error(`${className}: unknown option "${key}". It takes ${[...known].join(", ")}.`);
  }
  const backups = o.backupModels ?? [];
  if (!Array.isArray(backups) || backups.some((m) => typeof m !== "string" || !m.trim())) {
    throw new Error(`${className}: backupModels must be a list of model names, e.g. [${example}].`);
  }
  if (o.config !== undefined && (!o.config || typeof o.config !== "object" || Array.isArray(o.config))) {
    throw new Error(`${className}: config must be an object of request defaults.`);
  }
  const retry = (o.retryConfig ?? {}) as Record<string, unknown>;
  if (typeof retry !== "object" || Array.isArray(retry)) throw new Error(`${className}: retryConfig must be { timeout?, retries? }.`);
  for (const key of Object.keys(retry)) {
    if (key !== "timeout" && key !== "retries") throw new Error(`${className}: unknown retryConfig option "${key}". It takes timeout and retries.`);
  }
  const timeoutMs = retry.timeout ?? DEFAULT_TIMEOUT_MS;
  const retries = retry.retries ?? DEFAULT_RETRIES;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`${className}: retryConfig.timeout must be a positive number of milliseconds per attempt (default ${DEFAULT_TIMEOUT_MS}).`);
  }
  if (typeof retries !== "number" || !Number.isInteger(retries) || retries < 1) {
    throw new Error(`${className}: retryConfig.retries must be a whole number of attempts, 1 or more (default ${DEFAULT_RETRIES}).`);
  }
  return { apiKey: o.apiKey, model: o.model, backupModels: [...(backups as string[])], timeoutMs, retries };
}

/** A base URL from the environment (trimmed; empty counts as unset). */
export function envUrl(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}
