import { encodeOtlpTraceRequest, otlpAttribute } from '@switchyard/test-engine/testing/otlp-trace-body';
import { startTestApp, type HttpResponse, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents and answers are read field by field
type Json = any;

/** A write of the API, called with a request it accepts; `prepare` runs while the read models run. */
interface Write {
  prepare?: () => Promise<void>;
  call: () => Promise<HttpResponse>;
}

const ci = (repository: string) => `/v1/ci/${repository.replace('/', '/repositories/')}`;

/** One test case's result, as a reporter uploads it (OTLP protobuf). */
function traces(): string {
  const now = BigInt(Date.parse('2026-03-02T09:00:00Z')) * 1_000_000n;
  const body = encodeOtlpTraceRequest({
    resourceSpans: [
      {
        resource: {
          attributes: [
            otlpAttribute('cicd.pipeline.name', 'ci'),
            otlpAttribute('cicd.pipeline.task.name', 'unit'),
            otlpAttribute('vcs.ref.head.revision', 'c0ffee'),
            otlpAttribute('vcs.ref.head.name', 'main'),
          ],
        },
        scopeSpans: [
          {
            scope: { name: 'pytest-mergify' },
            spans: [
              {
                traceId: Buffer.alloc(16, 1),
                spanId: Buffer.from(Array.from({ length: 8 }, () => Math.floor(Math.random() * 256))),
                name: 'tests/test_a.py::test_a',
                kind: 1,
                startTimeUnixNano: String(now - 1_000_000n),
                endTimeUnixNano: String(now),
                attributes: [
                  otlpAttribute('test.scope', 'case'),
                  otlpAttribute('test.case.result.status', 'passed'),
                  otlpAttribute('code.filepath', 'tests/test_a.py'),
                ],
                status: { code: 1 },
              },
            ],
          },
        ],
      },
    ],
  });
  return Buffer.from(body) as unknown as string;
}

const JUNIT =
  '<testsuites><testsuite name="suite"><testcase classname="tests.a" name="test_a" time="0.1"/></testsuite></testsuites>';
const FREEZE = {
  reason: 'Holidays',
  start: '2026-12-24T18:00:00',
  end: '2026-12-27T08:00:00',
  timezone: 'Europe/Paris',
  matching_conditions: ['base=main'],
};
const CONFIGURATION = 'queue_rules:\n  - name: default\n    batch_size: 1\n';

/**
 * /v1/openapi.json says which writes may answer 202: exactly those that wait for their read
 * models (read-your-writes) and answer 202 when that wait ends first. Held to what the routes do:
 * with every read model stopped, each documented write is called once, and the ones that answer
 * 202 must be the ones the document declares it for. Every documented write must be called here.
 */
describe('OpenAPI: the 202 of a write its read models do not show yet', () => {
  jest.setTimeout(300_000);
  let app: TestApp;

  beforeAll(async () => {
    // CI that never ends: the pull request to dequeue stays queued.
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '3600' });
  }, 120_000);
  afterAll(() => app?.close());

  it('is declared for exactly the writes that answer it', async () => {
    const ciKey = await app.createKey('ci');
    const repo = (name: string) => uniqueRepository(`openapi-${name}`);
    const admin = (method: string, path: string, body?: unknown) => app.request(method, path, { body });
    const created = async (method: string, path: string, body?: unknown) => {
      const response = await admin(method, path, body);
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
      return response.body as Json;
    };
    const upload = (path: string, rawBody: string, type: string) =>
      app.request('POST', path, { token: ciKey, rawBody, headers: { 'content-type': type } });

    const queued = new SandboxTeam(app, repo('dequeue'));
    let pullRequest = 0;
    const state: { freezes: string[]; quarantine: string } = { freezes: [], quarantine: '' };
    const [paused, pausedLegacy, pausedLegacyPost] = [
      repo('unpause'),
      repo('unpause-legacy'),
      repo('unpause-post'),
    ];
    const [frozen, quarantined] = [repo('frozen'), repo('quarantined')];

    const writes: Record<string, Write> = {
      'PUT /v1/repos/{owner}/{repository}/merge-queue/pause': {
        call: () => admin('PUT', `/v1/repos/${repo('pause')}/merge-queue/pause`, { reason: 'incident' }),
      },
      'DELETE /v1/repos/{owner}/{repository}/merge-queue/pause': {
        prepare: async () =>
          void (await created('PUT', `/v1/repos/${paused}/merge-queue/pause`, { reason: 'r' })),
        call: () => admin('DELETE', `/v1/repos/${paused}/merge-queue/pause`),
      },
      'PUT /v1/repos/{owner}/{repository}/queue/pause': {
        call: () => admin('PUT', `/v1/repos/${repo('pause-legacy')}/queue/pause`, { reason: 'incident' }),
      },
      'DELETE /v1/repos/{owner}/{repository}/queue/pause': {
        prepare: async () =>
          void (await created('PUT', `/v1/repos/${pausedLegacy}/queue/pause`, { reason: 'r' })),
        call: () => admin('DELETE', `/v1/repos/${pausedLegacy}/queue/pause`),
      },
      'POST /v1/repos/{owner}/{repository}/queue/pause/delete': {
        prepare: async () =>
          void (await created('PUT', `/v1/repos/${pausedLegacyPost}/queue/pause`, { reason: 'r' })),
        call: () => admin('POST', `/v1/repos/${pausedLegacyPost}/queue/pause/delete`),
      },
      'POST /v1/repos/{owner}/{repository}/scheduled_freeze': {
        call: () => admin('POST', `/v1/repos/${repo('freeze')}/scheduled_freeze`, FREEZE),
      },
      'PATCH /v1/repos/{owner}/{repository}/scheduled_freeze/{freeze_id}': {
        prepare: async () => {
          for (let i = 0; i < 3; i++)
            state.freezes.push((await created('POST', `/v1/repos/${frozen}/scheduled_freeze`, FREEZE)).id);
        },
        call: () => admin('PATCH', `/v1/repos/${frozen}/scheduled_freeze/${state.freezes[0]}`, { end: null }),
      },
      'POST /v1/repos/{owner}/{repository}/scheduled_freeze/{freeze_id}/delete': {
        call: () =>
          admin('POST', `/v1/repos/${frozen}/scheduled_freeze/${state.freezes[1]}/delete`, {
            delete_reason: 'shipped early',
          }),
      },
      'DELETE /v1/repos/{owner}/{repository}/scheduled_freeze/{freeze_id}': {
        call: () => admin('DELETE', `/v1/repos/${frozen}/scheduled_freeze/${state.freezes[2]}`),
      },
      'POST /v1/repos/{owner}/{repository}/configuration-simulator': {
        call: () =>
          admin('POST', `/v1/repos/${queued.repository}/configuration-simulator`, {
            mergify_yml: CONFIGURATION,
          }),
      },
      'POST /v1/repos/{owner}/{repository}/merge-queue/simulation': {
        call: () =>
          admin('POST', `/v1/repos/${queued.repository}/merge-queue/simulation`, {
            mergify_yml: CONFIGURATION,
            arrivals: '2/h',
          }),
      },
      'POST /v1/repos/{owner}/{repository}/simulator': {
        call: () => admin('POST', `/v1/repos/${queued.repository}/simulator`, { mergify_yml: CONFIGURATION }),
      },
      'POST /v1/repos/{owner}/{repository}/pulls/{number}/simulator': {
        call: () =>
          admin('POST', `/v1/repos/${queued.repository}/pulls/${pullRequest}/simulator`, {
            mergify_yml: CONFIGURATION,
          }),
      },
      'POST /v1/repos/{owner}/{repository}/ci/traces': {
        call: () => upload(`/v1/repos/${repo('traces-cli')}/ci/traces`, traces(), 'application/x-protobuf'),
      },
      'POST /v1/ci/{owner}/repositories/{repository}/traces': {
        call: () => upload(`${ci(repo('traces'))}/traces`, traces(), 'application/x-protobuf'),
      },
      'POST /v1/ci/{owner}/repositories/{repository}/junit': {
        call: () =>
          upload(
            `${ci(repo('junit'))}/junit?pipeline_name=ci&job_name=unit&head_sha=c0ffee&branch=main`,
            JUNIT,
            'application/xml',
          ),
      },
      'POST /v1/ci/{owner}/repositories/{repository}/quarantines': {
        call: () =>
          admin('POST', `${ci(repo('quarantine'))}/quarantines`, { test_name: 't', reason: 'flaky' }),
      },
      'DELETE /v1/ci/{owner}/repositories/{repository}/quarantines/{quarantine_id}': {
        prepare: async () => {
          const body = { test_name: 't', reason: 'flaky' };
          state.quarantine = (await created('POST', `${ci(quarantined)}/quarantines`, body)).id;
        },
        call: () => admin('DELETE', `${ci(quarantined)}/quarantines/${state.quarantine}`),
      },
      'POST /v1/ci/{owner}/repositories/{repository}/quarantines/check': {
        call: () =>
          admin('POST', `${ci(quarantined)}/quarantines/check`, { tests_names: ['t'], branch: 'main' }),
      },
      'PUT /v1/ci/{owner}/repositories/{repository}/auto-quarantine': {
        call: () => admin('PUT', `${ci(repo('auto'))}/auto-quarantine`, { enabled: true }),
      },
      'POST /v1/ci/{owner}/{repository}/quarantine/check': {
        call: () => admin('POST', `/v1/ci/${quarantined}/quarantine/check`, { tests_names: ['t'] }),
      },
      'PUT /v1/repos/{owner}/{repository}/pulls/{number}/scopes': {
        call: () =>
          app.request('PUT', `/v1/repos/${queued.repository}/pulls/${pullRequest}/scopes`, {
            token: ciKey,
            body: { scopes: ['api'] },
          }),
      },
      'POST /v1/repos/{owner}/{repository}/pulls/{number}/scopes': {
        call: () =>
          app.request('POST', `/v1/repos/${queued.repository}/pulls/${pullRequest}/scopes`, {
            token: ciKey,
            body: { scopes: ['web'] },
          }),
      },
      'POST /v1/repos/{owner}/{repository}/merge-queue/pull/{number}/dequeue': {
        prepare: async () => {
          await queued.commitFile('main', 'README.md', '# widgets\n');
          await queued.commitFile('main', '.mergify.yml', CONFIGURATION);
          pullRequest = await queued.openChange('queued');
          await queued.comment(pullRequest, '@mergify queue');
          await queued.until('the status lists it', async () => {
            const { body } = await admin(
              'GET',
              `/v1/repos/${queued.repository}/merge-queue/pull/${pullRequest}`,
            );
            return body.number === pullRequest;
          });
        },
        call: () => admin('POST', `/v1/repos/${queued.repository}/merge-queue/pull/${pullRequest}/dequeue`),
      },
      'POST /v1/admin/parked-events/{id}/replay': {
        call: () => admin('POST', '/v1/admin/parked-events/1/replay'),
      },
    };

    const document = (await app.request('GET', '/v1/openapi.json')).body as Json;
    const documented = new Map<string, string[]>();
    for (const [path, operations] of Object.entries(document.paths as Record<string, Json>))
      for (const [method, operation] of Object.entries(operations as Record<string, Json>))
        if (method !== 'get')
          documented.set(`${method.toUpperCase()} ${path}`, Object.keys(operation.responses));
    expect(Object.keys(writes).sort()).toEqual([...documented.keys()].sort());

    for (const write of Object.values(writes)) await write.prepare?.();
    // Every read model stops: a write that waits for one cannot see it move, and answers 202.
    const host = app.running.projections!;
    for (const status of host.status())
      if (status.kind === 'projection') await host.runner(status.name)!.stop();

    const answered = new Map<string, number>();
    for (const [operation, write] of Object.entries(writes))
      answered.set(operation, (await write.call()).status);
    // None failed: each was accepted, 2xx, or refused for what it asked (a parked event that is not there).
    for (const [operation, status] of answered)
      expect([operation, status < 300 || operation.includes('parked-events')]).toEqual([operation, true]);
    const accepted = [...answered].filter(([, status]) => status === 202).map(([operation]) => operation);
    const declared = [...documented]
      .filter(([, codes]) => codes.includes('202'))
      .map(([operation]) => operation);
    expect(accepted.sort()).toEqual(declared.sort());
    // …and each declares its success status beside the 202.
    for (const operation of declared)
      expect(
        documented.get(operation)!.filter((code) => /^2\d\d$/.test(code) && code !== '202'),
      ).toHaveLength(1);
    expect(declared.length).toBeGreaterThan(0);
  });
});
