import { type Attributes, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** One test case as a reporter sees it. */
export interface ReportedCase {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  finishedAt: string;
  durationMs?: number;
  exception?: { type: string; message: string; stacktrace?: string };
  filepath?: string;
}

/**
 * The spans pytest-mergify would make for one CI job (ci-insights §1.5): a session span and one
 * child span per case, on a resource carrying the CI and VCS attributes, built with the
 * OpenTelemetry SDK itself.
 */
export function reporterSpans(resource: Attributes, cases: readonly ReportedCase[]): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'test.framework': 'pytest',
      'test.framework.version': '8.3.0',
      ...resource,
    }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('pytest-mergify', '2026.8.5');
  const first = Math.min(...cases.map((c) => Date.parse(c.finishedAt) - (c.durationMs ?? 100)));
  const last = Math.max(...cases.map((c) => Date.parse(c.finishedAt)));
  const session = tracer.startSpan('pytest session start', {
    startTime: new Date(first),
    attributes: { 'test.scope': 'session' },
  });
  const parent = trace.setSpan(context.active(), session);
  for (const testCase of cases) {
    const end = Date.parse(testCase.finishedAt);
    const span = tracer.startSpan(
      testCase.name,
      {
        startTime: new Date(end - (testCase.durationMs ?? 100)),
        attributes: {
          'test.scope': 'case',
          'test.case.result.status': testCase.status,
          'code.filepath': testCase.filepath ?? testCase.name.split('::')[0]!,
          'code.function': testCase.name.split('::').pop()!,
          'code.lineno': 12,
          'cicd.test.quarantined': false,
          ...(testCase.exception
            ? {
                'exception.type': testCase.exception.type,
                'exception.message': testCase.exception.message,
                'exception.stacktrace':
                  testCase.exception.stacktrace ?? `Traceback\n${testCase.exception.message}`,
              }
            : {}),
        },
      },
      parent,
    );
    span.setStatus({ code: testCase.status === 'failed' ? SpanStatusCode.ERROR : SpanStatusCode.OK });
    span.end(new Date(end));
  }
  session.end(new Date(last));
  return memory.getFinishedSpans();
}

/** ExportResultCode.SUCCESS of @opentelemetry/core. */
const EXPORT_SUCCESS = 0;

/** Sends spans as the reporters do: the OTLP/HTTP protobuf exporter, gzip, a bearer token. */
export async function exportSpans(url: string, token: string, spans: ReadableSpan[]): Promise<void> {
  const exporter = new OTLPTraceExporter({
    url,
    headers: { authorization: `Bearer ${token}` },
    compression: 'gzip' as never,
  });
  try {
    await new Promise<void>((resolve, reject) =>
      exporter.export(spans, (result) =>
        result.code === EXPORT_SUCCESS
          ? resolve()
          : reject(
              Object.assign(result.error ?? new Error('export failed'), {
                message: `${result.error?.message} ${JSON.stringify((result.error as { data?: unknown })?.data)}`,
              }),
            ),
      ),
    );
  } finally {
    await exporter.shutdown();
  }
}

/** The resource attributes of a GitHub Actions job on a commit. */
export const githubJob = (options: {
  repository: string;
  pipeline: string;
  job: string;
  sha: string;
  branch: string;
  base?: string;
  attempt?: number;
}): Attributes => ({
  'cicd.provider.name': 'github_actions',
  'cicd.pipeline.name': options.pipeline,
  'cicd.pipeline.task.name': options.job,
  'cicd.pipeline.run.id': 4242,
  'cicd.pipeline.run.attempt': options.attempt ?? 1,
  'vcs.ref.head.revision': options.sha,
  'vcs.ref.head.name': options.branch,
  ...(options.base ? { 'vcs.ref.base.name': options.base } : {}),
  'vcs.repository.name': options.repository,
});
