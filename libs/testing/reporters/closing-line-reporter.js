/**
 * Ends the run with one plain line ("Tests: N passed, N failed, N skipped") that CI tooling reads
 * regardless of the test runner.
 */
class ClosingLineReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } =
      results;
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    process.stdout.write(
      `\nTests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`,
    );
  }
}
module.exports = ClosingLineReporter;
