// The extraction of one file: one walk finds the calls worth a look (builder, agent and eval calls)
// and the scripted understand replies; then field sets, flows, agents and eval sites are read in that
// fixed order, so symbol ids are the same whichever file asked for the extraction.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;
import { reportAnalysisError } from "../../errors";
import type { Parsed } from "../../resolve/declarations";
import { nodeIndexOf } from "../../parse";
import { calledMethod } from "../../util/ts-nodes";
import type { AgentModel, BuilderRef, DurationValue, FalaiFileModel, FieldSetModel, FlowModel, Registration, RegistrationKind, ScriptKeyRef, TurnSite } from "../model";
import { keptReader, type Reader } from "../reader";
import { keepShape } from "../../util/shapes";
import { readAgent } from "./agents";
import { isUnderstandEnvelope, readClockAdvance, readScriptKeys, readTurnSite } from "./eval-sites";
import { readFieldSet } from "./fields";
import { readFlow } from "./flows";
import type { FalaiHost } from "./host";
import { markStartable } from "./starts";

/** Methods whose calls may be falai API: builder methods, agent methods, the fake clock. */
const METHODS = new Set(["fields", "flow", "fromSpec", "agent", "turn", "turnStream", "advance"]);

/** What the session gives a file's extraction: builders and definitions in other files. */
export interface SessionLink {
  readerFor(at: Parsed): Reader;
  extractorFor(at: Parsed): FileExtractor | undefined;
  builderOf(at: Parsed, receiver: ts.Node): BuilderRef | undefined;
  isFakeClock(at: Parsed, node: ts.Node): boolean;
  registration(kind: RegistrationKind, at: Parsed, keyNode: ts.Node, build: () => Registration): Registration;
}

export class FileExtractor implements FalaiHost {
  readonly importsFalai: boolean;
  private readonly calls: ts.CallExpression[] = [];
  /** The method each of `calls` calls. */
  private readonly methods: string[] = [];
  private readonly envelopes: ts.ObjectLiteralExpression[] = [];
  private readonly fieldSets = new Map<ts.Node, FieldSetModel>();
  private readonly flows = new Map<ts.Node, FlowModel>();
  private readonly agents = new Map<ts.Node, AgentModel>();
  private readonly turnSites: TurnSite[] = [];
  private readonly durations: DurationValue[] = [];
  private scriptKeys: ScriptKeyRef[] = [];
  private readonly usedIds = new Set<string>();

  constructor(private readonly session: SessionLink, readonly reader: Reader) {
    const sf = reader.sf;
    this.importsFalai = sf.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === "@falai/agent");
    // the parse recorded every call and every `flows:` property: no second walk of the file
    const index = nodeIndexOf(sf);
    for (const call of index.calls) {
      const method = calledMethod(call);
      if (method && METHODS.has(method)) {
        this.calls.push(call);
        this.methods.push(method);
      }
    }
    for (const p of index.flowsProperties) {
      if (ts.isObjectLiteralExpression(p.parent) && isUnderstandEnvelope(p.parent)) this.envelopes.push(p.parent); // `{ flows: {...}, mentions, extract, branches, fields }`
    }
  }

  run(): void {
    const { calls, methods } = this;
    const at = this.reader.at;
    for (let i = 0; i < calls.length; i++) if (methods[i] === "fields") this.guard(() => this.fieldSetAt(at, calls[i]!));
    for (let i = 0; i < calls.length; i++) if (methods[i] === "flow" || methods[i] === "fromSpec") this.guard(() => this.flowAt(at, calls[i]!));
    for (let i = 0; i < calls.length; i++) if (methods[i] === "agent") this.guard(() => this.agentAt(at, calls[i]!));
    for (let i = 0; i < calls.length; i++) {
      const m = methods[i]!;
      const c = calls[i]!;
      if (m === "turn" || m === "turnStream") {
        this.guard(() => {
          const site = readTurnSite(this, c, m);
          if (site) this.turnSites.push(site);
        });
      } else if (m === "advance") {
        this.guard(() => {
          const d = readClockAdvance(this, c, (at2, node) => this.session.isFakeClock(at2, node));
          if (d) this.durations.push(d);
        });
      }
    }
    if (this.envelopes.length) {
      this.guard(() => {
        const agents = new Set(this.turnSites.flatMap((s) => (s.agent ? [s.agent] : [])));
        this.scriptKeys = readScriptKeys(this, this.envelopes, agents.size ? agents : this.agents.values());
      });
    }
    this.guard(() => markStartable(this.reader.sf, [...this.flows.values()], [...this.agents.values()], this.turnSites));
  }

  /** Some symbol id carries an offset (a second declaration of one name): it moves with the text. */
  private positionalIds = false;

  model(): FalaiFileModel {
    const file = this.reader.file;
    const registrations = new Map<string, Registration>();
    for (const agent of this.agents.values()) {
      for (const reg of [...agent.tools.entries, ...agent.actions.entries, ...agent.events.entries, ...agent.conditions.entries]) {
        if (reg.file === file && !registrations.has(reg.symbolId)) registrations.set(reg.symbolId, reg);
      }
    }
    return {
      file,
      fieldSets: [...this.fieldSets.values()],
      flows: [...this.flows.values()],
      agents: [...this.agents.values()],
      registrations: [...registrations.values()],
      turnSites: this.turnSites,
      scriptKeys: this.scriptKeys,
      durations: this.durations,
      positionalIds: this.positionalIds,
    };
  }

  // ---- FalaiHost -------------------------------------------------------------------------------------

  claim(kind: string, base: string, node: ts.Node): string {
    let key = `${kind}:${base}`;
    if (this.usedIds.has(key)) {
      key = `${key}@${node.getStart(this.reader.sf)}`;
      this.positionalIds = true;
    }
    this.usedIds.add(key);
    return `${this.reader.file}#${key}`;
  }

  builderOf(receiver: ts.Node): BuilderRef | undefined {
    return this.session.builderOf(this.reader.at, receiver);
  }

  readerFor(at: Parsed): Reader {
    return at.file === this.reader.file ? this.reader : this.session.readerFor(at);
  }

  registration(kind: RegistrationKind, at: Parsed, keyNode: ts.Node, build: () => Registration): Registration {
    return this.session.registration(kind, at, keyNode, build);
  }

  fieldSetAt(at: Parsed, node: ts.Node): FieldSetModel | undefined {
    if (at.file !== this.reader.file) return this.session.extractorFor(at)?.fieldSetAt(at, node);
    return this.memo(this.fieldSets, node, () => {
      const call = node as ts.CallExpression;
      return this.builderOf((call.expression as ts.PropertyAccessExpression).expression)?.known ? readFieldSet(this, call) : undefined;
    });
  }

  flowAt(at: Parsed, node: ts.Node): FlowModel | undefined {
    if (at.file !== this.reader.file) return this.session.extractorFor(at)?.flowAt(at, node);
    return this.memo(this.flows, node, () => readFlow(this, node as ts.CallExpression, calledMethod(node as ts.CallExpression) === "fromSpec"));
  }

  agentAt(at: Parsed, node: ts.Node): AgentModel | undefined {
    if (at.file !== this.reader.file) return this.session.extractorFor(at)?.agentAt(at, node);
    return this.memo(this.agents, node, () => readAgent(this, node as ts.CallExpression));
  }

  // ---- internals -------------------------------------------------------------------------------------

  /** One model per node, read on first ask (in the fixed order of `run`, or earlier when an agent of
   *  this file asks for a flow defined further down). A node being read answers undefined (a cycle). */
  private memo<T>(map: Map<ts.Node, T>, node: ts.Node, read: () => T | undefined): T | undefined {
    if (map.has(node)) return map.get(node);
    if (this.reading.has(node) || this.misses.has(node)) return undefined;
    this.reading.add(node);
    try {
      const value = read();
      if (value) map.set(node, value);
      else this.misses.add(node);
      return value;
    } finally {
      this.reading.delete(node);
    }
  }

  private readonly reading = new Set<ts.Node>();
  private readonly misses = new Set<ts.Node>();

  /** A broken definition must never stop the rest of the extraction (a failure is still a bug: it is reported). */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      reportAnalysisError(error, `falai extraction in ${this.reader.file}`);
    }
  }
}

// Kept so the class's map outlives each analysis (util/shapes.ts); it read an empty file.
keepShape(new FileExtractor(undefined as unknown as SessionLink, keptReader));
