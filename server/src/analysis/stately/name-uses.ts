// Request names written as plain strings in evals, tied to the machine whose requests they name:
// `case "draftEmail":` / `request.name === "draftEmail"` inside an executor a runAgent / runSeam call
// hands the machine's requests to, the items of an array compared with the names such an executor
// collected (`calls.push(request.name)`) or with `run.calls.map((c) => c.name)`, and the keys of
// createScriptedExecutors / simulateAgent scripts. A name tied to one machine's request is a reference to
// it; one that may name a request of several machines, or sits in such code with no machine known, is
// an uncertain reference (rename offers it for confirmation, nothing else uses it).
import { ts as morphTs } from "ts-morph";
import ts = morphTs; // read once: ts-morph re-exports it through a getter
import type { AgentReference, CompletionCandidate } from "../api";
import { nameSourceFunction, nameUsesOf, type NameUse } from "../name-uses";
import { contentRangeOfTs } from "../ranges";
import { lookupDeclaration, type Parsed } from "../resolve/declarations";
import type { Values } from "../resolve/values";
import { unwrap } from "../util/ts-nodes";
import type { FileModel, MachineDef, Text } from "./model";
import { requestNamesOf } from "./names";

/** The machines a piece of eval code serves; `null` stands for a call whose machine is not known. */
type Machines = Set<MachineDef | null>;

const UNTIED = "a request name in eval code the analysis cannot tie to one machine";

export function nameUseReferences(file: Parsed, model: FileModel, values: Values, out: AgentReference[]): void {
  const fnMachines = new Map<ts.Node, Machines>();
  const scriptedMachines = new Map<ts.Node, Machines>();
  const resultMachines = new Map<ts.Node, Machines>();
  const files = new Map<string, Parsed>([[file.file, file]]);
  const add = (map: Map<ts.Node, Machines>, node: ts.Node, machine: MachineDef | undefined) => {
    let set = map.get(node);
    if (!set) map.set(node, (set = new Set()));
    set.add(machine ?? null);
  };
  const tied = new Tier(out);
  for (const call of model.evalCalls) {
    add(resultMachines, call.node, call.machine);
    for (const fn of call.executorFns) {
      add(fnMachines, fn.node, call.machine);
      files.set(fn.at.file, fn.at);
    }
    for (const s of call.scriptedExecutors) add(scriptedMachines, s, call.machine);
    for (const key of call.requestKeys) tied.note(key, "script-key", call.machine);
  }

  for (const at of files.values()) {
    const scan = nameUsesOf(at.sf);
    if (!scan.uses.length) continue;
    // lists filled with request names, and the machines of the executors filling them
    const lists = new Map<ts.Node, Machines>();
    for (const push of scan.pushes) {
      if (push.property !== "name") continue;
      const decl = lookupDeclaration(push.list);
      if (!decl || !ts.isVariableDeclaration(decl)) continue;
      let set = lists.get(decl);
      if (!set) lists.set(decl, (set = new Set()));
      const fn = nameSourceFunction(push.subject);
      for (const m of (fn && fnMachines.get(fn)) ?? [null]) set.add(m);
    }
    for (const use of scan.uses) {
      if (use.property !== "name") continue;
      const machines = machinesOfUse(at, use, { fnMachines, scriptedMachines, resultMachines, lists }, values);
      if (machines === undefined) continue; // not a request name at all (a list nobody fills with names)
      const text: Text = { text: use.literal.text, at, node: use.literal };
      if (machines.size && !machines.has(null)) tied.note(text, "name-use", ...machines);
      else if (at.file === file.file) tied.uncertain(text, [], UNTIED); // each file reports its own loose names once
    }
  }
  tied.flush();
}

interface Ties {
  fnMachines: Map<ts.Node, Machines>;
  scriptedMachines: Map<ts.Node, Machines>;
  resultMachines: Map<ts.Node, Machines>;
  lists: Map<ts.Node, Machines>;
}

/** The machines a name use serves: empty when it is request-name code no eval call reaches, undefined
 *  when it is not about request names. */
function machinesOfUse(at: Parsed, use: NameUse, ties: Ties, values: Values): Machines | undefined {
  const subject = use.subject && unwrap(use.subject);
  if (!subject) return undefined;
  if (use.shape === "case" || use.shape === "compare") {
    const fn = nameSourceFunction(subject);
    return (fn && ties.fnMachines.get(fn)) ?? new Set();
  }
  // an expected list: compared with a filled list, or with `<result>.calls.map((c) => c.name)`
  if (ts.isIdentifier(subject)) {
    const decl = lookupDeclaration(subject);
    return decl ? ties.lists.get(decl) : undefined;
  }
  if (!ts.isPropertyAccessExpression(subject) || subject.name.text !== "calls") return undefined;
  const v = values.valueOf(at, subject.expression);
  let node = v && unwrap(v.node);
  if (node && ts.isAwaitExpression(node)) node = unwrap(node.expression);
  return (node && (ties.resultMachines.get(node) ?? ties.scriptedMachines.get(node))) ?? new Set();
}

/** Decides, per string, whether it names one request for sure, may name one of several, or nothing. */
class Tier {
  private readonly names = new Map<ts.Node, { text: Text; role: AgentReference["role"]; machines: Set<MachineDef> }>();
  private readonly candidates = new Map<MachineDef, CompletionCandidate[]>();

  constructor(private readonly out: AgentReference[]) {}

  note(text: Text, role: AgentReference["role"], ...machines: Array<MachineDef | null | undefined>): void {
    let entry = this.names.get(text.node);
    if (!entry) this.names.set(text.node, (entry = { text, role, machines: new Set() }));
    for (const m of machines) if (m) entry.machines.add(m);
  }

  uncertain(text: Text, ids: string[], reason: string): void {
    this.out.push({ ...this.base(text, "name-use"), uncertain: { ids, reason } });
  }

  flush(): void {
    for (const { text, role, machines } of this.names.values()) {
      if (!machines.size) continue;
      const ids = new Set<string>();
      let allKnown = true;
      for (const m of machines) {
        const names = requestNamesOf(m);
        if (!names) allKnown = false;
        const id = requestSymbolId(m, text.text);
        if (id) ids.add(id);
      }
      const ref = this.base(text, role);
      if (machines.size === 1) ref.candidates = this.candidatesOf([...machines][0]!);
      if (ids.size === 1 && allKnown) ref.targetId = [...ids][0];
      else if (ids.size) ref.uncertain = { ids: [...ids], reason: `a request name in eval code shared by ${machines.size} machines` };
      else if (!allKnown) continue; // nothing to say: some machine's requests cannot be listed
      this.out.push(ref);
    }
  }

  private base(text: Text, role: AgentReference["role"]): AgentReference {
    return { role, kind: "request", file: text.at.file, range: contentRangeOfTs(text.at.sf, text.node), text: text.text };
  }

  private candidatesOf(machine: MachineDef): CompletionCandidate[] {
    let list = this.candidates.get(machine);
    if (!list) {
      list = [];
      for (const name of requestNamesOf(machine)?.requests ?? []) list.push({ insertText: name, kind: "request", symbolId: requestSymbolId(machine, name), detail: "request" });
      this.candidates.set(machine, list);
    }
    return list;
  }
}

/** The symbol a request name of a machine resolves to: a declared request, an inline one, or an actor. */
function requestSymbolId(machine: MachineDef, name: string): string | undefined {
  return machine.agent?.requests.get(name)?.symbolId ?? machine.inlineRequests.get(name)?.symbolId ?? machine.agent?.actors.get(name)?.symbolId;
}
