import { isAtOrAfter } from '@switchyard/event-store';
import { scheduledFreezeProjection, scheduledFreezeStreamId } from '@switchyard/repository-controls';
import { startTestApp, type TestApp } from './harness';

const FREEZES = scheduledFreezeProjection.name;
const pausePath = '/v1/repos/acme/widgets/merge-queue/pause';
const freezePath = '/v1/repos/acme/widgets/scheduled_freeze';
const newFreeze = { reason: 'release', start: '2026-04-01T09:00:00', end: null, timezone: 'UTC' };

interface ProcessorReport {
  name: string;
  state: string;
  position: string | null;
  behind: number | null;
  failed_on: { type: string; streamId: string; revision: string; position: string } | null;
}
interface Readiness {
  detail?: string;
  checks: Array<{ name: string; ok: boolean; details?: { processors: ProcessorReport[] } }>;
}

/** Each test starts its own app, which alone can take most of jest's default 30 s on a loaded machine. */
const STARTS_AN_APP_MS = 120_000;

/**
 * Writes wait only for the read models of the reads after them (issue 7 §3), and a write whose
 * read model has stopped for good is refused before it appends (issue 14 §1).
 */
describe('per-read freshness and the 503 refusal (all-in-one app)', () => {
  let app: TestApp;
  afterEach(() => app?.close());

  const host = () => app.running.projections!;
  const eventCount = async () => app.running.storage.store.countEvents();
  const processors = async (expectedStatus: number) => {
    const response = await app.request<Readiness>('GET', '/readyz', { token: null });
    expect(response.status).toBe(expectedStatus);
    const check = response.body.checks.find((entry) => entry.name === 'processors');
    return { response, reports: new Map(check!.details!.processors.map((report) => [report.name, report])) };
  };

  it(
    'a pause answers, and reads back, while the freeze projection lags behind it',
    async () => {
      app = await startTestApp();
      await host().runner(FREEZES)!.stop();

      const paused = await app.request('PUT', pausePath, { body: { reason: 'INC-7' } });
      expect(paused.status).toBe(200);
      expect((await app.request('GET', pausePath)).body).toMatchObject({ paused: true, reason: 'INC-7' });

      const head = (await app.running.storage.store.headPosition())!;
      const freezesAt = host().runner(FREEZES)!.position();
      expect(freezesAt !== null && isAtOrAfter(freezesAt, head)).toBe(false);
      const { reports } = await processors(200);
      expect(reports.get(FREEZES)).toMatchObject({ state: 'stopped', failed_on: null });
      expect(reports.get(FREEZES)!.behind).toBeGreaterThan(0);

      host().runner(FREEZES)!.start();
      expect(await host().waitFor([FREEZES], head, 10_000)).toBe(true);
      expect((await processors(200)).reports.get(FREEZES)).toMatchObject({ state: 'live', behind: 0 });
    },
    STARTS_AN_APP_MS,
  );

  it(
    'once the freeze projection has stopped on a poison event, a freeze write answers 503 and appends nothing; a pause still works',
    async () => {
      app = await startTestApp();
      // An event no version of the projection can store (its id is not a uuid), as a bug could leave.
      const poisonId = 'not-a-uuid';
      const { lastPosition: poison } = await app.running.storage.store.appendToStream(
        scheduledFreezeStreamId(poisonId),
        [
          {
            type: 'scheduled_freeze.scheduled',
            data: {
              freezeId: poisonId,
              repository: 'acme/widgets',
              attributes: { ...newFreeze, matchingConditions: [], excludeConditions: [] },
              startAt: '2026-04-01T09:00:00.000Z',
              endAt: null,
              actor: { type: 'application', id: 'x', name: 'x' },
              at: '2026-03-02T10:00:00.000Z',
            },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      // Resolves false as soon as the runner gives up on the event (a few seconds of backoff).
      expect(await host().waitFor([FREEZES], poison, 30_000)).toBe(false);
      expect(host().runner(FREEZES)!.failed).toMatchObject({
        type: 'scheduled_freeze.scheduled',
        position: poison,
      });

      const { response, reports } = await processors(503);
      expect(response.body.detail).toContain(`${FREEZES} has stopped`);
      expect(reports.get(FREEZES)!.failed_on).toMatchObject({
        type: 'scheduled_freeze.scheduled',
        streamId: scheduledFreezeStreamId(poisonId),
        revision: '0',
        position: poison,
      });

      const before = await eventCount();
      const refused = await app.request('POST', freezePath, { body: newFreeze });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.body.detail).toContain(FREEZES);
      expect(await eventCount()).toBe(before);

      const paused = await app.request('PUT', pausePath, { body: { reason: 'still works' } });
      expect(paused.status).toBe(200);
      expect((await app.request('GET', pausePath)).body).toMatchObject({
        paused: true,
        reason: 'still works',
      });
      expect(await eventCount()).toBe(before! + 1);
    },
    STARTS_AN_APP_MS,
  );
});
