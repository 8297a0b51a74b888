import assert from "node:assert/strict";
import { contentSecurityPolicy, makeNonce, panelHtml } from "../../client/src/panel/html";

describe("client: results panel HTML shell", () => {
  const html = panelHtml({ cspSource: "https://x.vscode-cdn.net", scriptUri: "https://x/panel.js", styleUri: "https://x/panel.css", nonce: "abc123" });

  it("has a strict CSP: nothing by default, scripts only by nonce, styles from the extension or by nonce", () => {
    const csp = contentSecurityPolicy("https://x.vscode-cdn.net", "abc123");
    assert.match(csp, /^default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'(;|$)/);
    assert.match(csp, /style-src https:\/\/x\.vscode-cdn\.net 'nonce-abc123'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.ok(html.includes(`content="${csp}"`));
  });

  it("loads exactly one script, carrying the nonce, and no inline script", () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(scripts, ['<script nonce="abc123" src="https://x/panel.js">']);
    assert.doesNotMatch(html, /<script[^>]*>[^<]+<\/script>/);
  });

  it("escapes the URIs it puts in attributes", () => {
    const h = panelHtml({ cspSource: "c", scriptUri: 'https://x/"><img src=x>', styleUri: "s", nonce: "n" });
    assert.ok(!h.includes('"><img'));
    assert.ok(h.includes('src="https://x/&quot;>&lt;img src=x>"'));
  });

  it("makes a fresh alphanumeric nonce each time", () => {
    const a = makeNonce();
    const b = makeNonce();
    assert.match(a, /^[A-Za-z0-9]{16,}$/);
    assert.notEqual(a, b);
  });
});
