// The results panel's HTML shell: a strict Content-Security-Policy with a per-load nonce, our script and
// stylesheet, and no user data at all (results arrive later by postMessage and are drawn as text).
import { randomBytes } from "node:crypto";

export interface ShellOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `webview.asWebviewUri(...)` of dist/media/panel.js and panel.css, as strings. */
  scriptUri: string;
  styleUri: string;
  nonce?: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString("base64").replace(/[^A-Za-z0-9]/g, "");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join("; ");
}

export function panelHtml(options: ShellOptions): string {
  const nonce = options.nonce ?? makeNonce();
  const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(options.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${attr(options.styleUri)}">
<title>Agent Lens Results</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="empty">Run a seam, turns or an eval to see its results here.</p></main>
<script nonce="${nonce}" src="${attr(options.scriptUri)}"></script>
</body>
</html>`;
}
