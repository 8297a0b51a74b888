// The report payloads exist twice by design: the runtime's copy (runtime/src/shared/report.ts) is part of
// the libraries' generated declarations and may not import shared/, the wire's (shared/protocol/reports.ts)
// is what clients read. Here TypeScript's own checker holds them to the same types, name by name.
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");
const WIRE = join(ROOT, "shared/protocol/reports.ts");
const RUNTIME = join(ROOT, "runtime/src/shared/report.ts");

/** The wire's report types, and those that are missing from the runtime's copy or differ from it. */
function compare(edit: (text: string) => string = (t) => t): { wire: string[]; differing: string[] } {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.readFile;
  host.readFile = (f) => (resolve(f) === WIRE ? edit(read(f)!) : read(f));
  const program = ts.createProgram([WIRE, RUNTIME], options, host);
  const checker = program.getTypeChecker();
  const typesOf = (file: string) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    return new Map(checker.getExportsOfModule(module).filter((s) => s.flags & ts.SymbolFlags.Type).map((s) => [s.name, checker.getDeclaredTypeOfSymbol(s)]));
  };
  const wire = typesOf(WIRE);
  const runtime = typesOf(RUNTIME);
  const differing = [...wire].flatMap(([name, type]) => {
    const other = runtime.get(name);
    if (!other) return [`${name}: not in the runtime's copy`];
    return checker.isTypeAssignableTo(type, other) && checker.isTypeAssignableTo(other, type) ? [] : [`${name}: differs`];
  });
  return { wire: [...wire.keys()].sort(), differing };
}

describe("shared: the report payloads, restated by the runtime", function () {
  this.timeout(60_000);

  it("every type of shared/protocol/reports.ts is in runtime/src/shared/report.ts, and each is assignable to the other", () => {
    const { wire, differing } = compare();
    assert.deepEqual(wire, ["AgentRunReportPayload", "FlowExitKind", "FlowVisitedReport", "MachineVisitedReport", "ReportKind", "ReportPayloads", "SeamReportPayload", "SeamSliceReport", "TurnReportPayload", "VerificationReportPayload"]);
    assert.deepEqual(differing, []);
  });

  it("a field that differs, or a type the runtime lacks, is found", () => {
    assert.deepEqual(compare((t) => t.replace("llmCalls: number;", "llmCalls: string;")).differing.sort(), ["ReportPayloads: differs", "TurnReportPayload: differs"]);
    assert.deepEqual(compare((t) => `${t}\nexport type Extra = { a: 1 };\n`).differing, ["Extra: not in the runtime's copy"]);
  });
});
