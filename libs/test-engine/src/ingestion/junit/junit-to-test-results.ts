import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { badRequest } from '@switchyard/kernel';
import type { Conclusion } from '../../domain/health/health-rules';
import type { RunContext, RunResults, TestExecution } from '../../domain/upload/test-results';
import { uploadedName, uploadedText } from '../upload-text';

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  cdataPropName: false,
  processEntities: true,
  // Every element an object with its position, so the first of <failure>/<error> can be told.
  alwaysCreateTextNode: true,
  captureMetaData: true,
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'failure' || name === 'error',
});

/**
 * A JUnit XML report as the same executions an OTLP upload gives (ci-insights §1.4, the CLI's
 * mapping): the test name is `classname.name` (or `name`), the first `<failure>` or `<error>`
 * makes it failed, otherwise `<skipped>` skipped; `type`, `message` and the element's text are the
 * exception. Trace and span ids derive from the report's content, so the same report twice is the
 * same executions.
 */
export function junitToTestResults(xml: string, run: RunContext, finishedAt: string): RunResults[] {
  let document: XmlNode;
  try {
    document = parser.parse(xml, true) as XmlNode;
  } catch (error) {
    throw badRequest(`The JUnit report is not well-formed XML: ${(error as Error).message}`);
  }
  const suites = rootSuites(document);
  const traceId = createHash('sha256').update(xml).digest('hex').slice(0, 32);
  const executions: TestExecution[] = [];
  const visit = (suite: XmlNode) => {
    for (const testcase of asNodes(suite.testcase))
      executions.push(executionOf(testcase, traceId, executions.length, finishedAt));
    for (const nested of asNodes(suite.testsuite)) visit(nested);
  };
  suites.forEach(visit);
  if (executions.length === 0) throw badRequest('The JUnit report holds no test case');
  return [{ run, executions }];
}

function rootSuites(document: XmlNode): XmlNode[] {
  const root = document.testsuites;
  if (root !== undefined) return asNodes(root).flatMap((node) => asNodes(node.testsuite));
  if (document.testsuite !== undefined) return asNodes(document.testsuite);
  throw badRequest('no testsuites or testsuite tag found');
}

function executionOf(testcase: XmlNode, traceId: string, index: number, finishedAt: string): TestExecution {
  const name = attribute(testcase, 'name') ?? 'unnamed test';
  const classname = attribute(testcase, 'classname');
  const problem = firstInDocument(asNodes(testcase.failure)[0], asNodes(testcase.error)[0]);
  const conclusion: Conclusion = problem ? 'failed' : testcase.skipped !== undefined ? 'skipped' : 'passed';
  const seconds = Number(attribute(testcase, 'time'));
  const testName = uploadedName('name', classname ? `${classname}.${name}` : name);
  return {
    traceId,
    spanId: createHash('sha256').update(`${traceId}:${index}`).digest('hex').slice(0, 16),
    testName,
    conclusion,
    finishedAt,
    durationMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0,
    quarantined: false,
    filepath: uploadedText(attribute(testcase, 'file')),
    functionName: testName,
    exceptionType: problem ? uploadedText(attribute(problem, 'type')) : null,
    exceptionMessage: problem ? uploadedText(attribute(problem, 'message')) : null,
    exceptionStacktrace: problem ? uploadedText(textOf(problem)) : null,
  };
}

const METADATA = XMLParser.getMetaDataSymbol() as unknown as string;

const startOf = (node: XmlNode): number =>
  (node[METADATA] as { startIndex?: number } | undefined)?.startIndex ?? Number.MAX_SAFE_INTEGER;

/** Only the first `<failure>` or `<error>` counts (ci-insights §1.4). */
function firstInDocument(failure: XmlNode | undefined, error: XmlNode | undefined): XmlNode | undefined {
  if (!failure || !error) return failure ?? error;
  return startOf(error) < startOf(failure) ? error : failure;
}

const asNodes = (value: unknown): XmlNode[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((item) =>
    typeof item === 'object' && item !== null ? (item as XmlNode) : {},
  );

function attribute(node: XmlNode, name: string): string | null {
  const value = node[`@${name}`];
  return typeof value === 'string' && value !== '' ? value : null;
}

function textOf(node: XmlNode): string | null {
  const value = node['#text'];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
