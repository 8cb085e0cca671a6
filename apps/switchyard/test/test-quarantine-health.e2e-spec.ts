import type { RunContext, TestExecution } from '@switchyard/test-engine';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Quarantines that follow test health, against the all-in-one app: default-branch uploads (stored
 * as the ingestion records them) move a test's health; the quarantine-health reactor then lifts a
 * recovered quarantine that asked for it and, with auto-quarantine on, quarantines unhealthy
 * identities. Each test takes a repository of its own and waits on store positions.
 */
describe('quarantines following test health (all-in-one app)', () => {
  let app: TestApp;
  let uploads = 0;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);
  afterAll(() => app.close());

  const quarantinesPath = (repo: string) => {
    const [owner, name] = repo.split('/');
    return `/v1/ci/${owner}/repositories/${name}/quarantines`;
  };

  const run = (commitSha: string, overrides: Partial<RunContext> = {}): RunContext => ({
    pipelineName: 'ci',
    jobName: 'tests',
    commitSha,
    headRef: 'main',
    baseRef: null,
    defaultBranch: 'main',
    runId: null,
    runAttempt: null,
    runUrl: null,
    provider: null,
    testRunId: null,
    framework: null,
    frameworkVersion: null,
    language: null,
    ...overrides,
  });

  const execution = (
    testName: string,
    conclusion: 'passed' | 'failed',
    finishedAt: string,
  ): TestExecution => {
    uploads++;
    return {
      traceId: uploads.toString(16).padStart(32, '0'),
      spanId: uploads.toString(16).padStart(16, '0'),
      testName,
      conclusion,
      finishedAt,
      durationMs: 10,
      quarantined: false,
      filepath: null,
      functionName: null,
      exceptionType: conclusion === 'failed' ? 'AssertionError' : null,
      exceptionMessage: conclusion === 'failed' ? 'expected 1, got 2' : null,
      exceptionStacktrace: null,
    };
  };

  /** Given: one upload of `executions` under `context`, recorded as ingestion records it. */
  async function givenUpload(repository: string, context: RunContext, executions: TestExecution[]) {
    const uploadId = `quarantine-e2e-${++uploads}`;
    await app.running.storage.store.appendToStream(
      `test_upload-${uploadId}`,
      [
        {
          type: 'test_results.recorded',
          data: {
            repository,
            uploadId,
            source: 'otlp',
            receivedAt: executions[0]!.finishedAt,
            part: 0,
            parts: 1,
            run: context,
            executions,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await settled();
  }

  /** Every processor at the head, until reactions append nothing more. */
  async function settled() {
    const host = app.running.projections!;
    for (;;) {
      const head = await app.running.storage.store.headPosition();
      expect(await host.waitFor(host.names, head, 30_000)).toBe(true);
      if ((await app.running.storage.store.headPosition()) === head) return;
    }
  }

  const list = async (repo: string) => {
    const response = await app.request('GET', quarantinesPath(repo));
    expect(response.status).toBe(200);
    return response.body.quarantined_tests;
  };

  it('lifts a quarantine that asked for it once the test is healthy on the default branch, and logs source auto', async () => {
    const repo = uniqueRepository('unquarantine-healthy');
    app.clock.set('2026-03-02T10:00:00.000Z');
    const keep = await app.request('POST', quarantinesPath(repo), {
      body: { test_name: 'test_keep', reason: 'r' },
    });
    const lift = await app.request('POST', quarantinesPath(repo), {
      body: { test_name: 'test_lift', reason: 'r', unquarantine_when_healthy: true },
    });
    expect([keep.status, lift.status]).toEqual([201, 201]);
    expect((await list(repo)).map((q: { health_status: unknown }) => q.health_status)).toEqual([null, null]);

    // A pull-request run does not count: the test has no default-branch health yet.
    await givenUpload(repo, run('c0', { headRef: 'feature', baseRef: 'main' }), [
      execution('test_lift', 'passed', '2026-03-02T11:00:00.000Z'),
    ]);
    expect(await list(repo)).toHaveLength(2);

    await givenUpload(repo, run('c1'), [
      execution('test_keep', 'passed', '2026-03-02T12:00:00.000Z'),
      execution('test_lift', 'passed', '2026-03-02T12:00:00.000Z'),
    ]);
    expect(await list(repo)).toEqual([
      expect.objectContaining({
        id: keep.body.id,
        health_status: 'healthy',
        is_recovered: true,
        unquarantine_when_healthy: false,
      }),
    ]);
    const lifted = await app.request('GET', `${quarantinesPath(repo)}/${lift.body.id}`);
    expect(lifted.status).toBe(404);
    expect(lifted.body).toEqual({ detail: 'The quarantine with the given id does not exist' });

    const log = await app.request(
      'GET',
      `/v1/repos/${repo}/logs?event_type=test.dequarantined&received_from=2026-03-01T00%3A00%3A00Z&received_to=2026-03-03T00%3A00%3A00Z`,
    );
    expect(log.body.events).toEqual([
      expect.objectContaining({
        type: 'test.dequarantined',
        trigger: 'auto_quarantine',
        received_at: '2026-03-02T12:00:00.000Z',
        metadata: expect.objectContaining({
          quarantine_id: lift.body.id,
          source: 'auto',
          health_status_at_event: 'healthy',
          original_quarantine: expect.objectContaining({
            source: 'manual',
            health_status_at_event: 'healthy',
          }),
          dequarantined_by: null,
          dequarantined_by_staff: false,
        }),
      }),
    ]);
  });

  it('auto-quarantines a flaky identity when on, broken ones only with ignore_broken_on_default_branch, and the check sees them', async () => {
    const repo = uniqueRepository('auto-quarantine-health');
    const [owner, name] = repo.split('/');
    const put = (body: unknown) =>
      app.request('PUT', `/v1/ci/${owner}/repositories/${name}/auto-quarantine`, { body });

    // Off: a flaky test stays unquarantined.
    await givenUpload(repo, run('c1'), [
      execution('test_flaky', 'failed', '2026-03-03T10:00:00.000Z'),
      execution('test_flaky', 'passed', '2026-03-03T10:01:00.000Z'),
    ]);
    expect(await list(repo)).toEqual([]);

    // Switching on quarantines what is already unhealthy, at once.
    app.clock.set('2026-03-03T11:00:00.000Z');
    expect((await put({ enabled: true })).status).toBe(200);
    await settled();
    expect(
      (await list(repo)).map((q: { test_name: string; created_at: string }) => [q.test_name, q.created_at]),
    ).toEqual([['test_flaky', '2026-03-03T11:00:00.000Z']]);
    // Same commit fails and passes again; the broken test fails on two commits in a row.
    await givenUpload(repo, run('c2'), [
      execution('test_flaky', 'failed', '2026-03-03T12:00:00.000Z'),
      execution('test_flaky', 'passed', '2026-03-03T12:01:00.000Z'),
      execution('test_broken', 'failed', '2026-03-03T12:00:00.000Z'),
    ]);
    await givenUpload(repo, run('c3'), [execution('test_broken', 'failed', '2026-03-03T13:00:00.000Z')]);
    const flaky = await list(repo);
    expect(flaky).toEqual([
      expect.objectContaining({
        test_name: 'test_flaky',
        reason: 'Automatically quarantined: flaky on the default branch',
        branch: null,
        pipeline_name: 'ci',
        job_name: 'tests',
        source: 'auto',
        health_status: 'flaky',
        is_recovered: false,
        unquarantine_when_healthy: true,
        created_at: '2026-03-03T11:00:00.000Z',
      }),
    ]);

    app.clock.set('2026-03-03T13:30:00.000Z');
    expect((await put({ enabled: true, ignore_broken_on_default_branch: true })).status).toBe(200);
    await settled();
    // Already quarantined: a later upload adds no second quarantine.
    await givenUpload(repo, run('c4'), [execution('test_broken', 'failed', '2026-03-03T14:00:00.000Z')]);
    expect(
      (await list(repo)).map((q: { test_name: string; health_status: string; created_at: string }) => [
        q.test_name,
        q.health_status,
        q.created_at,
      ]),
    ).toEqual([
      ['test_flaky', 'flaky', '2026-03-03T11:00:00.000Z'],
      ['test_broken', 'broken', '2026-03-03T13:30:00.000Z'],
    ]);

    const check = await app.request('POST', `${quarantinesPath(repo)}/check`, {
      body: { tests_names: ['test_flaky', 'test_broken', 'test_fine'], branch: 'main' },
    });
    expect(check.body).toEqual({
      quarantined_tests_names: ['test_flaky', 'test_broken'],
      non_quarantined_tests_names: ['test_fine'],
    });
    const filtered = await app.request(
      'GET',
      `${quarantinesPath(repo)}?source=auto&health_status=broken&job_name=other`,
    );
    expect(filtered.body.quarantined_tests).toEqual([]);
    const byJob = await app.request('GET', `${quarantinesPath(repo)}?job_name=tests&sort=health_status`);
    expect(byJob.body.quarantined_tests.map((q: { test_name: string }) => q.test_name)).toEqual([
      'test_broken',
      'test_flaky',
    ]);
  });
});
