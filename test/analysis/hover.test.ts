// Hover on a string that names nothing: the finding that says so and the names valid at that place (the
// quick fix's candidates), on the planted mistakes of examples/ — an unknown target, step, field, flow,
// event and condition.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { createWorkspace } from "../../server/src/analysis";
import { hoverAt } from "../../server/src/analysis/features/index";

const REPO = path.resolve(__dirname, "../..");
const ws = createWorkspace({ roots: [path.join(REPO, "examples")] });

/** The hover `inside` characters into the first occurrence of `needle`. */
function hoverOn(rel: string, needle: string, inside: number): string {
  const file = path.join(REPO, "examples", rel);
  const offset = readFileSync(file, "utf8").indexOf(needle);
  assert.ok(offset >= 0, needle);
  const hover = hoverAt(ws, ws.analyze(file), offset + inside + 1);
  assert.ok(hover, `a hover on ${needle}`);
  return hover.markdown;
}

describe("hover on names that name nothing", () => {
  // [file, text hovered, the finding's words, the valid names, the nearest name when one is near enough]
  const cases: Array<[string, string, RegExp, RegExp, string | undefined]> = [
    ["stately/mistakes.ts", '({ target: "reveiw"', /"reveiw".*names no state/, /Valid state names here: .*`review`/, "review"],
    ["falai/mistakes.ts", 'else: "quen"', /'quen' is no step/, /Valid steps here: `quem`, .*`end`/, "quem"],
    ["falai/mistakes.ts", '"emial"', /Field 'emial'/, /Valid field names here: .*`email`/, "email"],
    ["falai/mistakes.ts", '"humnao"', /names flow 'humnao'/, /Valid flow names here: .*`humano`/, "humano"],
    ["falai/mistakes.ts", '"pagamento-aprovado"', /names event 'pagamento-aprovado'/, /Valid event names here: `[^`]+`/, undefined],
    ["falai/mistakes.ts", "ehVip", /names condition 'ehVip'/, /Valid condition names here: `[^`]+`/, undefined],
  ];
  for (const [file, needle, message, valid, nearest] of cases) {
    it(`${file} ${needle}: the valid names${nearest ? " and the nearest one" : ""}, not the finding again (the diagnostic's hover says it)`, () => {
      const markdown = hoverOn(file, needle, needle.indexOf('"') + 1);
      assert.doesNotMatch(markdown, message, "the finding's message, once already in the editor's hover");
      assert.match(markdown, valid);
      // the nearest name is in the finding's message ("Did you mean 'review'?"): not said twice
      if (nearest) assert.doesNotMatch(markdown, /Did you mean/, markdown);
      if (nearest) assert.match(markdown, new RegExp(`\`${nearest}\``));
    });
  }

  it("a target the analysis cannot judge claims nothing about it", () => {
    const file = "/w/m.ts";
    const text = `import { createMachine } from "xstate";\ndeclare function more(): object;\nexport const m = createMachine({ initial: "a", states: { ...more(), a: { on: { GO: "elsewhere" } } } });\n`;
    const local = createWorkspace({ roots: ["/w"], readFile: (f) => (f === file ? text : undefined) });
    const markdown = hoverAt(local, local.analyze(file), text.indexOf('"elsewhere"') + 2)!.markdown;
    assert.match(markdown, /cannot be told from the source alone/);
    assert.doesNotMatch(markdown, /names no/);
  });
});

describe("hover where a run lens is not offered", () => {
  it("on `src: agent.decide`: runSeam puts text requests under the seam, a decide executor answers a decision", () => {
    const markdown = hoverOn("stately/support-triage.ts", "src: agent.decide", "src: agent.".length);
    assert.match(markdown, /No \*\*Run seam\*\* here/);
    assert.match(markdown, /routes text requests only/);
    assert.match(markdown, /executors: \{ decide \}/);
  });
  it("on an unnamed inline request: a seam cannot address it", () => {
    assert.match(hoverOn("stately/mistakes.ts", "src: createTextLogic(", "src: create".length), /no name and no invoke `id`/);
  });
});
