// Mocha's spec reporter, plus the plain closing line `N passed, N failed` (and `, N skipped`) that CI
// and other tools read, the same line `agent-lens run` ends with.
const Mocha = require("mocha");

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      process.stdout.write(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ""}\n`);
    });
  }
}

module.exports = SpecWithSummary;
