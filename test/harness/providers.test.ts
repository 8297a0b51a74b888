// The falai model providers under the harness, as a user runs them: an eval file with an OpenAIProvider reaches a
// local OpenAI-speaking server through OPENAI_BASE_URL and passes; the vendor SDK is no part of the file's library
// layer (it is imported from dist/vendor by URL, and only when a provider is called), and the key the run used
// appears in no event.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleEvalFile } from "../../runtime/src/harness/index";
import { startOpenAIServer, type VendorServer } from "../support/vendor-servers/openai";
import { ensureBuilt, fixtures, runCollect, suiteCache, testEnds } from "./support";

const dir = join(fixtures, "providers");
const KEY = "placeholder-credential-harness-9d8c7b6a"; // not a real key: the tests assert it never shows

describe("harness: the falai model providers", function () {
  this.timeout(120_000);
  const cacheDir = suiteCache();
  let server: VendorServer;
  before(async () => {
    server = await startOpenAIServer();
  });
  after(() => server.close());

  it("an eval file's OpenAIProvider answers two turns from the server named by OPENAI_BASE_URL; no event holds the key", async () => {
    const reply = (text: string) => ({ text });
    server.script(reply('{"message":"Como você se chama?","nome":null}'), reply('{"fields":{"nome":"Bia"}}'), reply('{"message":"Obrigada, Bia!"}'));
    const { result, events } = await runCollect({ file: join(dir, "openai-two-turns.test.ts"), cacheDir: cacheDir(), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY } });
    assert.equal(result.status, "passed", JSON.stringify(testEnds(events)));
    assert.deepEqual(server.requests.map((r) => r.body.response_format?.json_schema?.name), ["speak", "understand", "speak"]);
    assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`));
    assert.equal(JSON.stringify(events).includes(KEY), false);
  });

  it("the SDKs stay out of the library layer: our runtime imports dist/vendor/sdk-*.mjs by URL, dynamically", async () => {
    const dist = ensureBuilt(["runtime/falai-agent.mjs", "vendor/sdk-openai.mjs", "vendor/sdk-anthropic.mjs", "vendor/sdk-google-genai.mjs"]);
    const r = await bundleEvalFile({ entry: join(dir, "provider-never-called.test.ts"), workspace: dir, cacheDir: cacheDir() });
    assert.ok(r.ok, r.ok ? "" : r.failure.message);
    const layer = r.meta.libs!.files.map((f) => readFileSync(f.file, "utf8")).join("\n");
    for (const sdk of ["sdk-openai", "sdk-anthropic", "sdk-google-genai"]) {
      assert.ok(layer.includes(`import("file://${join(dist, `vendor/${sdk}.mjs`)}")`), `a dynamic import of ${sdk}.mjs by URL`);
    }
    assert.doesNotMatch(layer, /OpenAI-Organization|dangerouslyAllowBrowser|x-goog-api-key|google-auth-library/, "none of the SDKs' own code");
    assert.ok(layer.length < 400_000, `layer is ${layer.length} bytes`);
    const { result, events } = await runCollect({ file: join(dir, "provider-never-called.test.ts"), cacheDir: cacheDir() });
    assert.equal(result.status, "passed", JSON.stringify(testEnds(events)));
  });
});
