// The stately code lenses: Explore paths on a machine, Run seam on a declared request, on an invoke of a
// request and on a runSeam call — or, where a seam cannot run, the reason (shown where the lens would be).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { LensAnchor } from "../api";
import type { At, EvalCall, MachineDef, RequestDef } from "./model";
import { fullRange, type Outputs } from "./output-parts";

/** On a machine: Explore paths (refused, with the reason, on one that is not exported). */
export function exploreLens(machine: MachineDef, out: Outputs): void {
  out.lenses.push({
    kind: "explore-paths",
    file: machine.at.file,
    range: fullRange({ at: machine.at, node: machine.calleeNode }),
    title: "Explore paths",
    target: { kind: "explore-paths", file: machine.at.file, machineExport: machine.exportName, machineId: machine.symbolId },
    // A generated explorePaths program imports the machine: an unexported one cannot run (its diagram can).
    ...(machine.exportName ? {} : { refused: `No **Explore paths** here: \`${machine.name}\` is not exported, so a generated run cannot import it. Export it, or call \`explorePaths\` in this file.` }),
  });
}

// Why a seam lens is not offered (the hover where it would be says it).
const DECISION_SEAM = "No **Run seam** here: `runSeam` puts a *text* request under the seam and routes text requests only; a decision is answered by a `decide` executor. To run it, call `runAgent` (or `runSeam` on a text request of this machine) with `executors: { decide }`.";
const NOT_EXPORTED = (machine: MachineDef) => `No **Run seam** here: \`${machine.name}\` is not exported, so a generated seam run cannot import it. Export it (\`export const ${machine.name} = …\`), or call \`runSeam\` in this file.`;
const UNNAMED_SEAM = "No **Run seam** here: this request has no name and no invoke `id`, so a seam cannot address it (its name would be an id XState makes up). Give it a `name`.";

/** A run-seam anchor of `machine`'s request at `where`: a lens, or the reason there is none. */
function seamAnchor(machine: MachineDef, request: string, where: At, title = "Run seam", refused?: string): LensAnchor {
  return {
    kind: "run-seam",
    file: where.at.file,
    range: fullRange(where),
    title,
    target: { kind: "run-seam", file: machine.at.file, machineExport: machine.exportName, machineId: machine.symbolId, request },
    ...(refused ? { refused } : {}),
  };
}

/** On a declared request: a lens that runs its seam under the machine of the agent that invokes it — a
 *  request several machines share asks which (LensTarget.choices) — none for a decision or a request no
 *  exported machine invokes. */
export function requestLenses(request: RequestDef, machinesOfAgent: MachineDef[], out: Outputs): void {
  const where = { at: request.at, node: request.nameNode };
  const users = machinesOfAgent.filter((m) => m.invokes.some((i) => i.src.kind === "string" && i.src.text === request.name));
  if (request.kind !== "text") {
    if (users[0]) out.lenses.push(seamAnchor(users[0], request.name, where, "Run seam", DECISION_SEAM));
    return;
  }
  const runnable = users.filter((m) => m.exportName);
  if (!runnable.length) {
    if (users[0]) out.lenses.push(seamAnchor(users[0], request.name, where, "Run seam", NOT_EXPORTED(users[0])));
    return;
  }
  const lens = seamAnchor(runnable[0]!, request.name, where, runnable.length > 1 ? `Run seam · ${runnable.length} machines…` : "Run seam");
  // Shared by machines: one lens that asks which (one lens each would not fit a line).
  if (runnable.length > 1) lens.target.choices = runnable.map((m) => ({ name: m.name, machineExport: m.exportName!, machineId: m.symbolId, file: m.at.file, line: m.at.sf.getLineAndCharacterOfPosition(m.node.getStart(m.at.sf)).line + 1 }));
  out.lenses.push(lens);
}

/** On each invoke of a request: a lens where runSeam can put it under the seam (a text request with a
 *  name or an invoke id, of an exported machine); elsewhere the reason there is none. */
export function invokeLenses(machine: MachineDef, out: Outputs): void {
  for (const invoke of machine.invokes) {
    const src = invoke.src;
    if (src.kind === "string") {
      const request = machine.agent?.requests.get(src.text);
      if (!request) continue;
      const refused = request.kind !== "text" ? DECISION_SEAM : !machine.exportName ? NOT_EXPORTED(machine) : undefined;
      out.lenses.push(seamAnchor(machine, src.text, src, "Run seam", refused));
    } else if (src.kind === "request") {
      const where = { at: src.at, node: ts.isCallExpression(src.node) ? src.node.expression : src.node };
      const request = src.name?.text ?? invoke.id?.text;
      const refused = src.logic !== "text" ? DECISION_SEAM : !request ? UNNAMED_SEAM : !machine.exportName ? NOT_EXPORTED(machine) : undefined;
      out.lenses.push(seamAnchor(machine, request ?? "", where, "Run seam", refused));
    }
  }
}

/** On a runSeam call: the lens that runs it. */
export function runSeamCallLens(call: EvalCall, out: Outputs): void {
  if (call.api !== "runSeam") return;
  const at = call.at;
  const line = at.sf.getLineAndCharacterOfPosition(call.node.getStart(at.sf)).line + 1;
  out.lenses.push({
    kind: "run-seam",
    file: at.file,
    range: fullRange({ at, node: (call.node as ts.CallExpression).expression }),
    title: "Run seam",
    target: { kind: "run-seam", file: at.file, line, machineId: call.machine?.symbolId, request: call.seamRequest?.text },
  });
}
