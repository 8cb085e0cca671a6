import { DomainError } from '@switchyard/kernel';
import { runOn } from '../../testing/test-results-builder';
import { junitToTestResults } from './junit-to-test-results';

const run = runOn({ commitSha: 'c1' });
const at = '2026-05-10T12:00:00.000Z';

describe('JUnit XML to test results', () => {
  it('maps names, results, exceptions and nested suites as the CLI does', () => {
    const xml = `<?xml version="1.0"?>
      <testsuites><testsuite name="outer"><testsuite name="inner">
        <testcase classname="pkg.A" name="ok" time="0.25" file="pkg/a.py"/>
        <testcase name="bare"><skipped/></testcase>
        <testcase classname="pkg.A" name="bad"><error type="IOError" message="disk &amp; full"><![CDATA[trace here]]></error><failure type="Later"/></testcase>
      </testsuite></testsuite></testsuites>`;
    const [results] = junitToTestResults(xml, run, at);
    expect(results!.executions.map((e) => [e.testName, e.conclusion, e.durationMs])).toEqual([
      ['pkg.A.ok', 'passed', 250],
      ['bare', 'skipped', 0],
      ['pkg.A.bad', 'failed', 0],
    ]);
    expect(results!.executions[2]).toMatchObject({
      exceptionType: 'IOError',
      exceptionMessage: 'disk & full',
      exceptionStacktrace: 'trace here',
    });
    expect(junitToTestResults(xml, run, at)[0]!.executions[0]!.spanId).toBe(results!.executions[0]!.spanId);
  });

  it('accepts a bare testsuite root and refuses anything else', () => {
    expect(
      junitToTestResults('<testsuite><testcase name="t"/></testsuite>', run, at)[0]!.executions,
    ).toHaveLength(1);
    expect(() => junitToTestResults('<report/>', run, at)).toThrow(DomainError);
    expect(() => junitToTestResults('<testsuite></testsuite>', run, at)).toThrow(/no test case/);
    expect(() => junitToTestResults('<testsuite><testcase', run, at)).toThrow(DomainError);
  });
});
