import { gzipSync } from 'node:zlib';
import { failureIdOf, testIdOf } from '@switchyard/test-engine';
import { startTestApp, type TestApp } from './harness';
import { exportSpans, githubJob, type ReportedCase, reporterSpans } from './test-engine-reporter';
import { uniqueRepository } from './unique-repository';

jest.setTimeout(120_000);

const FLAKY = 'tests/test_flaky.py::test_sometimes';
const BROKEN = 'tests/test_broken.py::test_always';
const RECOVERING = 'tests/test_recover.py::test_back';
const FINE = 'tests/test_ok.py::test_fine';

const pass = (name: string, finishedAt: string, durationMs = 100): ReportedCase => ({
  name,
  status: 'passed',
  finishedAt,
  durationMs,
});
const fail = (name: string, finishedAt: string, type: string, message: string): ReportedCase => ({
  name,
  status: 'failed',
  finishedAt,
  exception: { type, message, stacktrace: `Traceback (most recent call last):\n${type}: ${message}` },
});

/**
 * The test engine end to end: uploads built with the OpenTelemetry SDK and sent by the OTLP
 * protobuf exporter, exactly as pytest-mergify does, over three commits of the default branch,
 * two jobs and one pull request; then every read endpoint against numbers worked out by hand
 * (docs/test-health.md gives the rules). Today is 2026-05-10; commits c1, c2, c3 ran on the 7th,
 * 8th and 9th.
 */
describe('test engine over HTTP (all-in-one app)', () => {
  let app: TestApp;
  let ci: string;
  let repository: string;
  const ids: Record<string, string> = {};

  const job = (sha: string, jobName = 'unit', attempt = 1) =>
    githubJob({ repository, pipeline: 'ci', job: jobName, sha, branch: 'main', attempt });
  const base = () => `/v1/ci/${repository.replace('/', '/repositories/')}`;
  const upload = (resource: ReturnType<typeof job>, cases: ReportedCase[]) =>
    exportSpans(`${app.baseUrl}${base()}/traces`, ci, reporterSpans(resource, cases));

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-05-10T12:00:00Z');
    ci = await app.createKey('ci');
    repository = uniqueRepository('tests');
    for (const name of [FLAKY, BROKEN, RECOVERING, FINE])
      ids[name] = testIdOf(repository.toLowerCase(), name);

    // c1, attempt 1: the flaky test and the recovering one fail.
    await upload(job('c1'), [
      fail(FLAKY, '2026-05-07T10:00:00Z', 'AssertionError', 'expected 3, got 4'),
      pass(BROKEN, '2026-05-07T10:00:00Z'),
      fail(RECOVERING, '2026-05-07T10:00:00Z', 'ValueError', 'bad value 17 at /srv/app/x.py'),
      pass(FINE, '2026-05-07T10:00:00Z', 200),
    ]);
    // c1, attempt 2 (a re-run of the job on the same commit): the flaky test passes.
    await upload(job('c1', 'unit', 2), [
      pass(FLAKY, '2026-05-07T10:30:00Z'),
      pass(BROKEN, '2026-05-07T10:30:00Z'),
      fail(RECOVERING, '2026-05-07T10:30:00Z', 'ValueError', 'bad value 17 at /srv/app/x.py'),
      pass(FINE, '2026-05-07T10:30:00Z', 300),
    ]);
    // Through the CLI's path this time: c2 breaks BROKEN.
    await exportSpans(
      `${app.baseUrl}/v1/repos/${repository}/ci/traces`,
      ci,
      reporterSpans(job('c2'), [
        pass(FLAKY, '2026-05-08T10:00:00Z'),
        fail(BROKEN, '2026-05-08T10:00:00Z', 'AssertionError', 'expected 200, got 500'),
        fail(RECOVERING, '2026-05-08T10:00:00Z', 'ValueError', 'bad value 18 at /srv/app/y.py'),
        pass(FINE, '2026-05-08T10:00:00Z', 250),
      ]),
    );
    await upload(job('c3'), [
      pass(FLAKY, '2026-05-09T10:00:00Z'),
      fail(BROKEN, '2026-05-09T10:00:00Z', 'AssertionError', 'expected 200, got 503'),
      pass(RECOVERING, '2026-05-09T10:00:00Z'),
      pass(FINE, '2026-05-09T10:00:00Z', 250),
    ]);
    await upload(job('c3', 'e2e'), [pass(FINE, '2026-05-09T11:00:00Z', 1000)]);
    // A pull request's run: stored, but no default-branch metric sees it.
    await upload(
      githubJob({ repository, pipeline: 'ci', job: 'unit', sha: 'c9', branch: 'feature', base: 'main' }),
      [fail(FINE, '2026-05-09T12:00:00Z', 'AssertionError', 'only on the branch')],
    );
  });
  afterAll(() => app.close());

  it('records the same upload once, and refuses malformed, oversized and misdirected bodies with nothing recorded', async () => {
    const own = uniqueRepository('uploads');
    const ownBase = `/v1/ci/${own.replace('/', '/repositories/')}`;
    const testId = testIdOf(own.toLowerCase(), FINE);
    const spans = reporterSpans(
      githubJob({ repository: own, pipeline: 'ci', job: 'unit', sha: 'c4', branch: 'main' }),
      [pass(FINE, '2026-05-10T09:00:00Z')],
    );
    await exportSpans(`${app.baseUrl}${ownBase}/traces`, ci, spans);
    const counted = () => app.request('GET', `${ownBase}/tests/${testId}/executions?window=7d`);
    const before = await counted();
    expect(before.body.executions).toEqual([
      { test_id: testId, test_name: FINE, pipeline_name: 'ci', job_name: 'unit', executions_count: 1 },
    ]);
    await exportSpans(`${app.baseUrl}${ownBase}/traces`, ci, spans);
    expect((await counted()).body).toEqual(before.body);

    const headers = { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' };
    const garbage = await app.request('POST', `${ownBase}/traces`, {
      token: ci,
      headers,
      rawBody: gzipSync(Buffer.from('not a protobuf message at all')) as unknown as string,
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({
      detail:
        'The body is not an OTLP ExportTraceServiceRequest in protobuf: invalid wire type 6 at offset 1',
    });

    const huge = await fetch(`${app.baseUrl}${ownBase}/traces`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${ci}` },
      body: Buffer.alloc(25 * 1024 * 1024 + 1, 1),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ detail: 'Request body is too large' });

    const elsewhere = await app.request('PUT', `/v1/repos/${own}/merge-queue/pause`, {
      headers: { 'content-type': 'application/x-protobuf' },
      rawBody: 'x',
    });
    expect(elsewhere.status).toBe(415);
    expect(elsewhere.body).toEqual({ detail: 'Unsupported media type: application/x-protobuf' });

    expect((await counted()).body).toEqual(before.body);
  });

  it('takes uploads from ci and admin keys only, and serves reads to admin keys, not ci keys', async () => {
    const spans = reporterSpans(job('c5'), [pass('tests/auth.py::t', '2026-05-10T09:00:00Z')]);
    const token = await app.issueServiceToken();
    await expect(exportSpans(`${app.baseUrl}${base()}/traces`, token, spans)).rejects.toThrow(
      'This endpoint does not accept service tokens',
    );
    const search = await app.request('GET', `${base()}/search/tests`, { token: ci });
    expect(search.status).toBe(403);
    expect(search.body).toEqual({ detail: 'This endpoint does not accept CI application keys' });
  });

  it('search/tests: default order and page size, totals, Link cursors, globs and every filter', async () => {
    const all = await app.request('GET', `${base()}/search/tests?per_page=100`);
    expect(all.status).toBe(200);
    const summary = (body: {
      tests: Array<{ test_name: string; job_name: string; metrics: Record<string, unknown> }>;
    }) =>
      body.tests.map((t) => [
        t.test_name,
        t.job_name,
        t.metrics.health_status,
        t.metrics.failed_executions_impact,
      ]);
    expect(summary(all.body)).toEqual([
      // Four executions each (c1 twice, c2, c3): ties go by name, descending with the sort.
      [RECOVERING, 'unit', 'healthy', null], // c1 and c2 failed, c3 passed: 0.75 of 1.75 < 0.7
      [FINE, 'unit', 'healthy', null],
      [FLAKY, 'unit', 'flaky', 'high'], // c1 failed then passed on a re-run; 1 failure in 4 = 25 %
      [BROKEN, 'unit', 'broken', 'high'], // c2 and c3 failed: 0.5 + 1 of 1.75 weighted ≥ 0.7
      [FINE, 'e2e', 'healthy', null],
    ]);
    expect(all.body.tests[1]).toEqual({
      test_id: ids[FINE],
      test_name: FINE,
      pipeline_name: 'ci',
      job_name: 'unit',
      is_quarantined: false,
      // Four executions: too few for more than low confidence.
      metrics: { health_status: 'healthy', health_confidence: 'low', failed_executions_impact: null },
    });
    expect(all.body.total).toBe(5);

    const first = await app.request('GET', `${base()}/search/tests?per_page=2&sort=test_name&direction=asc`);
    expect(first.body).toMatchObject({ size: 2, per_page: 2, total: 5 });
    expect(first.body.tests.map((t: { test_name: string }) => t.test_name)).toEqual([BROKEN, FLAKY]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1]!;
    const second = await app.request('GET', next.replace(app.baseUrl, ''));
    expect(second.body.tests.map((t: { test_name: string }) => t.test_name)).toEqual([FINE, FINE]);
    expect(second.headers.get('link')).toMatch(/rel="prev"/);

    const defaults = await app.request('GET', `${base()}/search/tests`);
    expect(defaults.body.per_page).toBe(10);

    const names = async (query: string) =>
      (await app.request('GET', `${base()}/search/tests?${query}`)).body.tests.map(
        (t: { test_name: string; job_name: string }) => `${t.test_name}@${t.job_name}`,
      );
    expect(await names('test_name=tests/test_b*')).toEqual([`${BROKEN}@unit`]);
    expect(await names('test_name=*::test_?ack')).toEqual([`${RECOVERING}@unit`]);
    expect(await names('test_name_exclude=tests/test_ok*&test_name_exclude=*recover*')).toEqual([
      `${FLAKY}@unit`,
      `${BROKEN}@unit`,
    ]);
    expect(await names('health_status=flaky')).toEqual([`${FLAKY}@unit`]);
    expect(await names('health_status_exclude=healthy&sort=health_status&direction=asc')).toEqual([
      `${BROKEN}@unit`,
      `${FLAKY}@unit`,
    ]);
    expect(await names('failed_executions_impact=high&sort=failed_executions_ratio')).toEqual([
      `${BROKEN}@unit`,
      `${FLAKY}@unit`,
    ]);
    expect(await names('failed_executions_impact_exclude=high')).toHaveLength(3);
    expect(await names('job_name=e2e')).toEqual([`${FINE}@e2e`]);
    expect(await names('job_name_exclude=unit&pipeline_name=ci')).toEqual([`${FINE}@e2e`]);
    expect(await names('pipeline_name_exclude=ci')).toEqual([]);
    expect(await names('is_quarantined=true')).toEqual([]);
    expect(await names('is_quarantined=false')).toHaveLength(5);

    const refused = await app.request('GET', `${base()}/search/tests?per_page=101&sort=nope`);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ type: 'less_than_equal', loc: ['query', 'per_page'], input: '101' }),
      expect.objectContaining({ type: 'enum', loc: ['query', 'sort'], input: 'nope' }),
    ]);
  });

  it('tests/{test_id}: ratios, first and last failure, and narrowing to a job', async () => {
    const broken = await app.request('GET', `${base()}/tests/${ids[BROKEN]}`);
    expect(broken.status).toBe(200);
    expect(broken.body).toEqual({
      repository: repository.toLowerCase(),
      test_name: BROKEN,
      test_id: ids[BROKEN],
      health_status: 'broken',
      last_conclusion: 'failed',
      failure_ratio: 0.5,
      flakiness_ratio: 0,
      success_ratio: 0.5,
      flaky_detection_enabled: true,
      first_failure_at: '2026-05-08T10:00:00Z',
      first_failure_commit: 'c2',
      first_failure_pull: null,
      last_failure_at: '2026-05-09T10:00:00Z',
      last_success_at: '2026-05-07T10:30:00Z',
      test_framework: 'pytest',
      test_framework_version: '8.3.0',
      test_programming_language: null,
      test_filepath: 'tests/test_broken.py',
      test_function_name: 'test_always',
    });
    const flaky = await app.request('GET', `${base()}/tests/${ids[FLAKY]}`);
    expect(flaky.body).toMatchObject({ health_status: 'flaky', failure_ratio: 0.25, flakiness_ratio: 1 / 3 });
    const e2e = await app.request('GET', `${base()}/tests/${ids[FINE]}?job_name=e2e`);
    expect(e2e.body).toMatchObject({
      health_status: 'healthy',
      success_ratio: 1,
      last_success_at: '2026-05-09T11:00:00Z',
    });
    const none = await app.request('GET', `${base()}/tests/${ids[FINE]}?job_name=nope`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'Test not found' });
    const bad = await app.request('GET', `${base()}/tests/not-a-uuid`);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: [
        {
          type: 'uuid_parsing',
          loc: ['path', 'test_id'],
          msg: 'Input should be a valid UUID, expected 32 hexadecimal digits in 8-4-4-4-12 groups',
          input: 'not-a-uuid',
        },
      ],
    });
    const unknownStat = await app.request('GET', `${base()}/tests/${ids[BROKEN]}/stats/p99`);
    expect(unknownStat.status).toBe(422);
    expect(unknownStat.body.detail[0]).toMatchObject({ type: 'enum', loc: ['path', 'stat'], input: 'p99' });
    const statsNope = await app.request('GET', `${base()}/tests/stats/nope`);
    expect(statsNope.status).toBe(422);
    expect(statsNope.body.detail).toEqual([
      expect.objectContaining({ type: 'enum', loc: ['path', 'stat'], input: 'nope' }),
    ]);
  });

  it('tests/{test_id}/stats/{stat}: one point per UTC day including today', async () => {
    const failures = await app.request(
      'GET',
      `${base()}/tests/${ids[RECOVERING]}/stats/failure_count?window=7d`,
    );
    expect(failures.body.stat).toBe('failure_count');
    expect(failures.body.value).toBe(3);
    expect(failures.body.value_over_time).toHaveLength(7);
    expect(failures.body.value_over_time[0]).toEqual({
      start: '2026-05-04T00:00:00Z',
      end: '2026-05-05T00:00:00Z',
      value: 0,
    });
    expect(failures.body.value_over_time.map((p: { value: number }) => p.value)).toEqual([
      0, 0, 0, 2, 1, 0, 0,
    ]);
    expect(failures.body.value_over_time[6].start).toBe('2026-05-10T00:00:00Z');

    const flaky = await app.request('GET', `${base()}/tests/${ids[FLAKY]}/stats/flaky_count?window=30d`);
    expect(flaky.body.value).toBe(1);
    expect(flaky.body.value_over_time).toHaveLength(30);

    const duration = await app.request(
      'GET',
      `${base()}/tests/${ids[FINE]}/stats/mean_duration?job_name=unit`,
    );
    // unit: 200 and 300 ms on the 7th, 250 on the 8th and on the 9th, nothing today.
    expect(duration.body.value).toBe(250);
    expect(duration.body.value_over_time.slice(3).map((p: { value: number }) => p.value)).toEqual([
      250, 250, 250, 0,
    ]);
    const success = await app.request('GET', `${base()}/tests/${ids[FINE]}/stats/success_count`);
    expect(success.body.value).toBe(5); // four in unit, one in e2e; the branch run is not counted
  });

  it('health-transitions: each point is the badge from then on; without a job the worst job wins', async () => {
    const recovering = await app.request(
      'GET',
      `${base()}/tests/${ids[RECOVERING]}/health-transitions?window=7d`,
    );
    expect(recovering.body).toEqual({
      transitions: [
        { at: '2026-05-07T00:00:00Z', health_status: 'healthy', exception_type: null, pull_request: null },
        {
          at: '2026-05-08T00:00:00Z',
          health_status: 'broken',
          exception_type: 'ValueError',
          pull_request: null,
        },
        { at: '2026-05-09T00:00:00Z', health_status: 'healthy', exception_type: null, pull_request: null },
      ],
      first_activity_at: '2026-05-07T10:00:00Z',
    });
    const flaky = await app.request('GET', `${base()}/tests/${ids[FLAKY]}/health-transitions`);
    expect(flaky.body.transitions).toEqual([
      { at: '2026-05-07T00:00:00Z', health_status: 'flaky', exception_type: null, pull_request: null },
    ]);
    const fine = await app.request(
      'GET',
      `${base()}/tests/${ids[FINE]}/health-transitions?window=90d&job_name=e2e`,
    );
    expect(fine.body.transitions.map((t: { at: string }) => t.at)).toEqual(['2026-05-09T00:00:00Z']);
  });

  it('failures group by masked message, and a failure shows its latest events', async () => {
    const failures = await app.request('GET', `${base()}/tests/${ids[RECOVERING]}/failures`);
    const id = failureIdOf(ids[RECOVERING]!, 'ValueError', 'bad value 17 at /srv/app/x.py');
    expect(failures.body).toEqual({
      failures: [
        {
          id,
          exception_type: 'ValueError',
          exception_message: 'bad value 18 at /srv/app/y.py',
          failure_count: 3,
          first_failure_at: '2026-05-07T10:00:00Z',
          last_failure_at: '2026-05-08T10:00:00Z',
        },
      ],
    });
    const detail = await app.request('GET', `${base()}/tests/${ids[RECOVERING]}/failures/${id}`);
    expect(detail.body.failure_count).toBe(3);
    expect(detail.body.latest_events.map((e: { failed_at: string }) => e.failed_at)).toEqual([
      '2026-05-08T10:00:00Z',
      '2026-05-07T10:30:00Z',
      '2026-05-07T10:00:00Z',
    ]);
    expect(detail.body.latest_events[0]).toMatchObject({
      exception_stacktrace: 'Traceback (most recent call last):\nValueError: bad value 18 at /srv/app/y.py',
      test_filepath: 'tests/test_recover.py',
      test_programming_language: null,
    });
    const broken = await app.request('GET', `${base()}/tests/${ids[BROKEN]}/failures`);
    expect(broken.body.failures).toHaveLength(1); // "got 500" and "got 503" mask to one message
    const unknown = await app.request('GET', `${base()}/tests/${ids[BROKEN]}/failures/${id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Failure not found' });
  });

  it('executions: identities on the default branch by executions, with cursors', async () => {
    const page = await app.request('GET', `${base()}/tests/${ids[FINE]}/executions?per_page=1&window=30d`);
    expect(page.body).toEqual({
      size: 1,
      per_page: 1,
      executions: [
        { test_id: ids[FINE], test_name: FINE, pipeline_name: 'ci', job_name: 'unit', executions_count: 4 },
      ],
    });
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')![1]!;
    const second = await app.request('GET', next.replace(app.baseUrl, ''));
    expect(second.body.executions).toEqual([
      { test_id: ids[FINE], test_name: FINE, pipeline_name: 'ci', job_name: 'e2e', executions_count: 1 },
    ]);
    const byJob = await app.request(
      'GET',
      `${base()}/tests/${ids[FINE]}/executions?sort=job_name&direction=asc`,
    );
    expect(byJob.body.executions.map((e: { job_name: string }) => e.job_name)).toEqual(['e2e', 'unit']);
  });

  it('tests/stats/{stat}: identities by health now, failed executions per day', async () => {
    const stat = async (name: string, query = '') =>
      (await app.request('GET', `${base()}/tests/stats/${name}${query}`)).body;
    expect((await stat('total_tests')).value).toBe(5);
    expect((await stat('healthy_tests')).value).toBe(3);
    expect((await stat('broken_tests')).value).toBe(1);
    expect((await stat('flaky_tests')).value).toBe(1);
    const failed = await stat('failed_executions');
    expect(failed.value).toBe(6);
    expect(failed.value_over_time).toHaveLength(30);
    expect(failed.value_over_time.slice(-4).map((p: { value: number }) => p.value)).toEqual([3, 2, 1, 0]);
    expect((await stat('failed_executions', '?test_name=*recover*')).value).toBe(3);
  });

  it('takes a JUnit XML report on its own route, as the same executions', async () => {
    const xml = `<?xml version="1.0"?>
      <testsuites><testsuite name="suite">
        <testcase classname="pkg.Mod" name="test_one" time="0.5" file="pkg/mod.py"/>
        <testcase classname="pkg.Mod" name="test_two" time="0.1"><failure type="KeyError" message="missing 7">trace</failure></testcase>
      </testsuite></testsuites>`;
    const url = `${base()}/junit?pipeline_name=jenkins&job_name=build&head_sha=j1&branch=main`;
    const sent = await app.request('POST', url, {
      token: ci,
      headers: { 'content-type': 'application/xml' },
      rawBody: xml,
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ executions: 2, recorded: true });
    const again = await app.request('POST', url, {
      token: ci,
      headers: { 'content-type': 'application/xml' },
      rawBody: xml,
    });
    expect(again.body).toEqual({ executions: 2, recorded: false });
    const found = await app.request(
      'GET',
      `${base()}/search/tests?pipeline_name=jenkins&sort=test_name&direction=asc`,
    );
    expect(found.body.tests.map((t: { test_name: string }) => t.test_name)).toEqual([
      'pkg.Mod.test_one',
      'pkg.Mod.test_two',
    ]);
    const notXml = await app.request('POST', url, {
      token: ci,
      headers: { 'content-type': 'application/xml' },
      rawBody: '<nope/>',
    });
    expect(notXml.status).toBe(400);
    expect(notXml.body).toEqual({ detail: 'no testsuites or testsuite tag found' });
  });
});
