// The results panel's script (runs inside the webview, bundled by esbuild as an IIFE). It receives
// ResultViews from the extension and draws them; clicks on locations and diagram nodes go back as
// messages. No HTML strings: see render.ts. Which result is on show is the extension's decision (the one
// the user asked for last); this script draws whatever it is sent.
import type { FromPanel, ToPanel } from "@agent-lens/protocol";
import type { Measure } from "./diagram-layout";
import { Renderer, type Doc } from "./render";
import "./panel.css";

declare function acquireVsCodeApi(): { postMessage(message: FromPanel): void; getState(): unknown; setState(state: unknown): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById("root") as HTMLElement;


/** Text widths with the fonts the diagram draws in (panel.css: node labels in the UI font, edge labels in the editor font). */
function canvasMeasure(): Measure | undefined {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return undefined;
  const style = getComputedStyle(document.body);
  const ui = style.getPropertyValue("--vscode-font-family").trim() || style.fontFamily;
  const code = style.getPropertyValue("--vscode-editor-font-family").trim() || "monospace";
  const fonts = { node: `12px ${ui}`, edge: `11px ${code}`, badge: `600 11px ${ui}` };
  return (text, kind) => {
    context.font = fonts[kind];
    return context.measureText(text).width;
  };
}

const renderer = new Renderer(document as unknown as Doc, {
  reveal: (file, line, column, oneBased) => vscode.postMessage({ type: "reveal", file, line, column, oneBased }),
  rerun: () => vscode.postMessage({ type: "rerun" }),
  select: (runId) => vscode.postMessage({ type: "select", runId }),
  newEval: (flowId, file) => vscode.postMessage({ type: "newEval", flowId, file }),
  compare: (against) => vscode.postMessage({ type: "compare", against }),
}, canvasMeasure());

function draw(message: ToPanel): void {
  const content = message.type === "show"
    ? renderer.view(message.view, message.recent)
    : message.type === "diagram"
      ? renderer.diagramView(message.view, message.recent)
      : message.type === "compare"
        ? renderer.compareView(message.view)
        : renderer.empty(message.message);
  root.replaceChildren(content as unknown as Node);
  vscode.setState(message);
}

function isToPanel(message: unknown): message is ToPanel {
  const type = (message as { type?: unknown } | null)?.type;
  return type === "show" || type === "diagram" || type === "compare" || type === "empty";
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  if (isToPanel(event.data)) draw(event.data);
});

const saved = vscode.getState();
if (isToPanel(saved)) draw(saved);
vscode.postMessage({ type: "ready" });
