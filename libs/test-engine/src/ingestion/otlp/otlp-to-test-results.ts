import { badRequest } from '@switchyard/kernel';
import type { Conclusion } from '../../domain/health/health-rules';
import { UNKNOWN_JOB, UNKNOWN_PIPELINE } from '../../domain/identity/test-identity';
import type { RunContext, RunResults, TestExecution } from '../../domain/upload/test-results';
import { uploadedName, uploadedText } from '../upload-text';
import { attributeMap, type Attributes, flag, integer, layered, text } from './otlp-attributes';
import type { OtlpLong, OtlpResourceSpans, OtlpSpan, OtlpTraceRequest } from './otlp-trace-request';

/** The CLI computes case starts from JUnit `time` × 10 on purpose (ci-insights §1.3); we undo it. */
const INFLATED_DURATION_SCOPES = new Set(['mergify-cli']);
const INFLATION = 10;

const SPAN_STATUS_ERROR = 2;

export interface UploadContext {
  defaultBranch: string;
  receivedAt: string;
}

/**
 * The test executions of an OTLP upload, one RunResults per resource. Only `test.scope=case`
 * spans are executions: session and suite spans (repeated in every chunk of a split upload) and
 * the Jenkins plugin's job and step spans carry nothing to record.
 */
export function otlpToTestResults(request: OtlpTraceRequest, context: UploadContext): RunResults[] {
  const results: RunResults[] = [];
  for (const resourceSpans of request.resourceSpans) {
    const resource = attributeMap(resourceSpans.resource?.attributes);
    const executions = executionsOf(resourceSpans, resource, context);
    if (executions.all.length > 0)
      results.push({ run: runContextOf(resource, executions.first, context), executions: executions.all });
  }
  return results;
}

function executionsOf(
  resourceSpans: OtlpResourceSpans,
  resource: Attributes,
  context: UploadContext,
): { all: TestExecution[]; first: Attributes } {
  const all: TestExecution[] = [];
  let first: Attributes = new Map();
  for (const scopeSpans of resourceSpans.scopeSpans) {
    const inflated = INFLATED_DURATION_SCOPES.has(scopeSpans.scope?.name ?? '');
    for (const span of scopeSpans.spans) {
      const attributes = attributeMap(span.attributes);
      if (attributes.get('test.scope') !== 'case') continue;
      if (all.length === 0) first = attributes;
      all.push(executionOf(span, layered(attributes, resource), inflated, context));
    }
  }
  return { all, first };
}

function executionOf(
  span: OtlpSpan,
  attributes: Attributes,
  inflated: boolean,
  context: UploadContext,
): TestExecution {
  const traceId = hexId(span.traceId, 16, 'trace id');
  const spanId = hexId(span.spanId, 8, 'span id');
  const name = span.name || text(attributes, 'test.case.name') || '';
  if (name === '') throw badRequest(`Span ${spanId} is a test case without a name`);
  const conclusion = conclusionOf(attributes, span);
  const startNs = nanos(span.startTimeUnixNano);
  const endNs = nanos(span.endTimeUnixNano);
  const rawMs = endNs > startNs && startNs > 0n ? Number((endNs - startNs) / 1000n) / 1000 : 0;
  const failed = conclusion === 'failed';
  return {
    traceId,
    spanId,
    testName: uploadedName('name', name),
    conclusion,
    finishedAt: endNs > 0n ? instantOf(endNs) : context.receivedAt,
    durationMs: inflated ? rawMs / INFLATION : rawMs,
    quarantined: flag(attributes, 'cicd.test.quarantined'),
    filepath: uploadedText(text(attributes, 'code.filepath')),
    functionName: uploadedText(text(attributes, 'code.function.name', 'code.function')),
    exceptionType: failed ? uploadedText(text(attributes, 'exception.type')) : null,
    exceptionMessage: failed
      ? uploadedText(text(attributes, 'exception.message') ?? (span.status?.message || null))
      : null,
    exceptionStacktrace: failed ? uploadedText(text(attributes, 'exception.stacktrace')) : null,
  };
}

function conclusionOf(attributes: Attributes, span: OtlpSpan): Conclusion {
  const status = text(attributes, 'test.case.result.status');
  if (status === 'passed' || status === 'failed' || status === 'skipped') return status;
  return span.status?.code === SPAN_STATUS_ERROR ? 'failed' : 'passed';
}

/** Resource attributes first; the CLI also puts the framework and language on every span. */
function runContextOf(resource: Attributes, firstCase: Attributes, context: UploadContext): RunContext {
  const both = layered(resource, firstCase);
  return {
    pipelineName: uploadedName('pipeline name', text(resource, 'cicd.pipeline.name') ?? UNKNOWN_PIPELINE),
    jobName: uploadedName(
      'job name',
      text(resource, 'mergify.test.job.name', 'cicd.pipeline.task.name') ?? UNKNOWN_JOB,
    ),
    commitSha: uploadedText(text(resource, 'vcs.ref.head.revision')),
    headRef: uploadedText(stripRefsHeads(text(resource, 'vcs.ref.head.name'))),
    baseRef: uploadedText(stripRefsHeads(text(resource, 'vcs.ref.base.name'))),
    defaultBranch: context.defaultBranch,
    runId: uploadedText(text(resource, 'cicd.pipeline.run.id')),
    runAttempt: integer(resource, 'cicd.pipeline.run.attempt'),
    runUrl: uploadedText(text(resource, 'cicd.pipeline.run.url')),
    provider: uploadedText(text(resource, 'cicd.provider.name')),
    testRunId: uploadedText(text(resource, 'test.run.id')),
    framework: uploadedText(text(both, 'test.framework')),
    frameworkVersion: uploadedText(text(both, 'test.framework.version')),
    language: uploadedText(text(both, 'test.language')),
  };
}

const stripRefsHeads = (ref: string | null): string | null =>
  ref === null ? null : ref.replace(/^refs\/heads\//, '');

function hexId(id: Uint8Array, bytes: number, what: string): string {
  if (id.length !== bytes || id.every((byte) => byte === 0)) {
    throw badRequest(`A test case span has an invalid ${what} (expected ${bytes} non-zero bytes)`);
  }
  return Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('hex');
}

/** A fixed64 timestamp, exactly (its halves are unsigned). */
const nanos = (value: OtlpLong): bigint =>
  typeof value === 'number' ? BigInt(value) : (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);

const MAX_INSTANT_NS = 253_402_300_799_999n * 1_000_000n;

function instantOf(ns: bigint): string {
  if (ns > MAX_INSTANT_NS) throw badRequest('A test case span ends after the year 9999');
  return new Date(Number(ns / 1_000_000n)).toISOString();
}
