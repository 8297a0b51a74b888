// The results panel's script (runs inside the webview, bundled by esbuild as an IIFE). It receives
// ResultViews from the extension and draws them; clicks on locations and diagram nodes go back as
// messages. No HTML strings: see render.ts.
import type { FromPanel, ToPanel } from "../src/panel/protocol";
import { Renderer, type Doc } from "./render";
import "./panel.css";

declare function acquireVsCodeApi(): { postMessage(message: FromPanel): void; getState(): unknown; setState(state: unknown): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById("root") as HTMLElement;
const renderer = new Renderer(document as unknown as Doc, {
  reveal: (file, line, column, oneBased) => vscode.postMessage({ type: "reveal", file, line, column, oneBased }),
  rerun: () => vscode.postMessage({ type: "rerun" }),
});
let lastRun = -1;

function draw(message: ToPanel): void {
  if (message.type === "show") {
    if (message.view.runId < lastRun) return; // a late update of an older run
    lastRun = message.view.runId;
  }
  const content = message.type === "show" ? renderer.view(message.view) : renderer.empty(message.message);
  root.replaceChildren(content as unknown as Node);
  vscode.setState(message);
}

window.addEventListener("message", (event: MessageEvent<ToPanel>) => {
  const message = event.data;
  if (message && (message.type === "show" || message.type === "empty")) draw(message);
});

const saved = vscode.getState() as ToPanel | undefined;
if (saved && (saved.type === "show" || saved.type === "empty")) draw(saved);
vscode.postMessage({ type: "ready" });
