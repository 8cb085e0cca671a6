import { pullRequestStreamId } from '@switchyard/code-host/facts';
import { countParkedEvents } from '@switchyard/projection';
import { eventually } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

const SNAPSHOTS = 'code_host.pull_request_snapshots';
const INTAKE = 'merge_queue.intake';

interface Readiness {
  checks: Array<{
    name: string;
    details?: { warnings?: string[]; processors: Array<{ name: string; parked: number }> };
  }>;
}

/**
 * Issue 33 §2, the runtime's second line behind the webhook door: a `github.*` fact that cannot be
 * applied (`"number": "abc"`, appended directly to the store as a buggy proxy or a GitHub schema
 * change could make it) is parked; the processors go on, /readyz stays 200 with a warning, and
 * the queue still acts on a good pull request.
 */
describe('an external fact no processor can apply is parked, not a stop', () => {
  jest.setTimeout(300_000);
  let app: TestApp;
  afterAll(() => app?.close());

  it('parks it in the snapshot projection and the intake, reports it, lists it, and goes on merging', async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
    const store = app.running.storage.store;
    const team = new SandboxTeam(app, uniqueRepository('parked'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');

    // A real fact of an opened pull request, made malformed the way a broken delivery would be.
    const model = await team.openChange('model');
    // The forge delivers its webhook after answering, so the fact is waited for, not assumed.
    const changed = await eventually("the opened pull request's fact", async () => {
      const { events } = await store.readStream(pullRequestStreamId(team.repository, model));
      return events.find((event) => event.type === 'github.pull_request_changed');
    });
    const data = changed.data as { number: unknown; pullRequest: { number: unknown } };
    const malformed = { ...data, number: 'abc', pullRequest: { ...data.pullRequest, number: 'abc' } };
    const { lastPosition } = await store.appendToStream(
      `github_pull_request-${team.repository}#abc`,
      [{ type: 'github.pull_request_changed', data: malformed }],
      { expectedRevision: 'no_stream' },
    );

    const host = app.running.projections!;
    expect(await host.waitFor([SNAPSHOTS, INTAKE], lastPosition, 120_000)).toBe(true);
    const parked = await countParkedEvents(app.running.storage.executor);
    expect(parked.get(SNAPSHOTS)).toBe(1);
    expect(parked.get(INTAKE)).toBe(1);

    const ready = await app.request<Readiness>('GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    const processors = ready.body.checks.find((check) => check.name === 'processors')!.details!;
    expect(processors.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining(`${SNAPSHOTS} has parked 1 event`)]),
    );
    expect(processors.processors.find((processor) => processor.name === INTAKE)?.parked).toBe(1);

    const listed = await app.request<{
      parked_events: Array<{ id: string; processor: string; event_type: string; position: string }>;
    }>('GET', '/v1/admin/parked-events');
    expect(listed.status).toBe(200);
    expect(listed.body.parked_events.map((event) => event.processor).sort()).toEqual(
      [INTAKE, SNAPSHOTS].sort(),
    );
    const first = listed.body.parked_events[0]!;
    expect(first).toMatchObject({ event_type: 'github.pull_request_changed', position: lastPosition });
    const shown = await app.request('GET', `/v1/admin/parked-events/${first.id}`);
    expect(shown.body).toMatchObject({ id: first.id, event: { data: { number: 'abc' } } });
    const withCiKey = await app.request('GET', '/v1/admin/parked-events', {
      token: await app.createKey('ci'),
    });
    expect(withCiKey.status).toBe(403);
    expect(withCiKey.body).toEqual({ detail: 'This endpoint does not accept CI application keys' });
    const unknown = await app.request('GET', '/v1/admin/parked-events/999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'No parked event 999999' });

    // The queue goes on: a later `@mergify queue` on a good pull request is acted on.
    const good = await team.openChange('good');
    await team.comment(good, '@mergify queue');
    await team.until('the good pull request merged', async () => (await team.pull(good)).merged);
    await eventually('still no processor stopped', async () =>
      host.status().every((status) => status.failedOn === null),
    );
  });
});
