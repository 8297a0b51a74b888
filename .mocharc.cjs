// Every suite, unit layers first, the end-to-end suite in a real VS Code last.
// Fixture files (user-style eval files named *.test.ts) live under test/fixtures and are never specs.
// MOCHA_SPEC="test/runtime/**/*.test.ts" npx mocha runs one layer only (positional specs add to the list).
// The check registries are generated, not committed (scripts/gen-checks.mjs): written first, so any
// mocha run (one layer, a fresh clone) sees the check files as they are now.
require("node:child_process").execFileSync(process.execPath, [require("node:path").join(__dirname, "scripts/gen-checks.mjs")], { stdio: "inherit" });
const only = process.env.MOCHA_SPEC;
module.exports = {
  "node-option": ["import=tsx"],
  extension: ["ts"],
  spec: only ? only.split(",") : [
    "test/shared/**/*.test.ts",
    "test/analysis/**/*.test.ts",
    "test/cli/**/*.test.ts",
    "test/lsp/**/*.test.ts",
    "test/runtime/**/*.test.ts",
    "test/conformance/*.test.ts",
    "test/harness/**/*.test.ts",
    "test/client/**/*.test.ts",
    "test/syntaxes/**/*.test.ts",
    "test/e2e/*.test.ts",
  ],
  ignore: ["test/fixtures/**", "test/conformance/programs/**"],
  timeout: 20000,
  reporter: "./test/support/spec-with-summary.cjs",
};
