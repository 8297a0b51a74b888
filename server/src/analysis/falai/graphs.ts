// A diagram per flow: a node per step (plus "end"), an edge for every way a run leaves a step — `then`
// (or on to the next step), `else`, `onFail`, each branch — labelled by why.
import type { AgentGraph } from "../api";
import type { FalaiFileModel, FlowModel, NextModel, StepModel } from "./model";
import { stepIdIn } from "./walk";

/** Each way out of a step: where it goes, its label, and which exit it is (then / else / onFail / branch:i). */
function edgeLabels(step: StepModel): Array<[NextModel | "fallthrough", string, string]> {
  const then = step.then ?? "fallthrough";
  const out: Array<[NextModel | "fallthrough", string, string]> = [];
  switch (step.kind) {
    case "wait":
      out.push([then, `after ${step.wait?.text ?? "wait"}`, "then"]);
      if (step.else) out.push([step.else, "else (customer message)", "else"]);
      break;
    case "wait-event":
      out.push([then, `on ${step.waitEvent?.text ?? "event"}`, "then"], [step.else ?? { kind: "dynamic" }, `no event${step.upTo ? ` in ${step.upTo.text}` : ""}`, "else"]);
      break;
    case "if":
      out.push([then, "if true", "then"], [step.else ?? { kind: "dynamic" }, "else", "else"]);
      break;
    case "do":
      out.push([then, "next", "then"]);
      if (step.onFail) out.push([step.onFail, "on failure", "onFail"]);
      break;
    default:
      out.push([then, "next", "then"]);
  }
  step.branches.forEach((b, i) => {
    if (b.then) out.push([b.then, b.hasWhen ? `when ${b.when ?? "…"}` : "if …", `branch:${i}`]);
  });
  return out;
}

function flowGraph(flow: FlowModel): AgentGraph {
  const endId = `${flow.symbolId}/end`;
  const nodes: AgentGraph["nodes"] = flow.steps.map((s) => ({
    id: s.symbolId,
    path: s.id?.text ?? `#${s.index + 1}`,
    label: s.id?.text ?? `#${s.index + 1}`,
    type: "step" as const,
    initial: s.index === 0,
    range: s.range,
    file: flow.file,
  }));
  const edges: AgentGraph["edges"] = [];
  for (const step of flow.steps) {
    for (const [exit, label, way] of edgeLabels(step)) {
      let target: string | undefined;
      let text = label;
      if (exit === "fallthrough") target = flow.steps[step.index + 1]?.symbolId ?? endId;
      else if (exit.kind === "step") target = stepIdIn(flow, exit.step.text);
      else if (exit.kind === "end") target = endId;
      else if (exit.kind === "flow") {
        target = endId;
        text = `${label} → flow ${exit.flow?.text ?? "…"}`;
      } else if (step.kind === "if" || step.kind === "wait-event") target = endId; // the default else: "end"
      const branch = way.startsWith("branch:") ? step.branches[Number(way.slice(7))] : undefined;
      if (target) edges.push({ source: step.symbolId, target, label: text, range: branch?.range ?? step.range, file: flow.file, exit: way });
    }
  }
  nodes.push({ id: endId, path: "end", label: "end", type: "final", range: flow.range, file: flow.file });
  return { kind: "flow", id: flow.symbolId, name: flow.id?.text ?? "flow", range: flow.range, nodes, edges };
}

export function graphsOf(model: FalaiFileModel): AgentGraph[] {
  return model.flows.map(flowGraph);
}
