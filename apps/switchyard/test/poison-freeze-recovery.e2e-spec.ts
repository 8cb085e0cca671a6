import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessorHost } from '@switchyard/projection';
import { scheduledFreezeStreamId } from '@switchyard/repository-controls';
import { startTestApp, type TestApp } from './harness';

/**
 * A store written by a version that accepted a year-0000 freeze (issue 14 §1) holds an event whose
 * start instant no timestamptz column takes. The current projections apply it (clamped into the
 * storable range), so upgrading clears the stall: the freeze is listed, later freezes too, and
 * /readyz is healthy, with no manual SQL, before and after a restart. Each test starts its own app
 * on a data directory of its own.
 */
describe('a store that already holds the year-0000 freeze (all-in-one app, PGlite on disk)', () => {
  let dataDir: string;
  let app: TestApp;

  const poisonId = '0b7f4d4e-3c2a-4b8e-9d1f-2a6c5e7f8a90';
  const path = '/v1/repos/acme/legacy/scheduled_freeze';

  const startOnDataDir = async () => {
    app = await startTestApp({ SWITCHYARD_DATA_DIR: dataDir });
    app.clock.set('2026-03-03T08:00:00.000Z');
  };
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'switchyard-poison-'));
    await startOnDataDir();
  });
  afterEach(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const caughtUp = async () => {
    const head = await app.running.storage.store.headPosition();
    const host = app.running.projections as ProcessorHost;
    if (head !== null) await host.waitFor(host.names, head, 10_000);
  };
  const listedIds = async () => {
    const response = await app.request<{ scheduled_freezes: Array<{ id: string; start: string }> }>(
      'GET',
      path,
    );
    expect(response.status).toBe(200);
    return response.body.scheduled_freezes.map((freeze) => [freeze.id, freeze.start]);
  };

  /** Appends the year-0000 freeze exactly as the old version stored it. */
  async function appendTheOldVersionsEvent() {
    const application = await app.request<{ id: string; name: string }>('GET', '/v1/application');
    const attributes = {
      reason: 'since forever',
      start: '0000-01-01T00:00:00',
      end: '2028-02-02T00:00:00',
      timezone: 'Europe/Paris',
      matchingConditions: [],
      excludeConditions: [],
    };
    await app.running.storage.store.appendToStream(
      scheduledFreezeStreamId(poisonId),
      [
        {
          type: 'scheduled_freeze.scheduled',
          data: {
            freezeId: poisonId,
            repository: 'acme/legacy',
            attributes,
            startAt: '-000001-12-31T23:50:39.000Z',
            endAt: '2028-02-01T23:00:00.000Z',
            actor: { type: 'application', id: application.body.id, name: application.body.name },
            at: '2026-03-03T07:00:00.000Z',
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await caughtUp();
  }

  const createLaterFreeze = () =>
    app.request<{ id: string }>('POST', path, {
      body: { reason: 'release', start: '2026-04-01T09:00:00', end: null, timezone: 'UTC' },
    });

  it('applies the raw event as an old version appended it, and keeps serving', async () => {
    await appendTheOldVersionsEvent();
    expect(await listedIds()).toEqual([[poisonId, '0000-01-01T00:00:00']]);
    expect((await app.request('GET', '/readyz', { token: null })).status).toBe(200);

    const later = await createLaterFreeze();
    expect(later.status).toBe(201);
    expect(await listedIds()).toEqual([
      [poisonId, '0000-01-01T00:00:00'],
      [later.body.id, '2026-04-01T09:00:00'],
    ]);
  });

  it('still serves both freezes after a restart on the same data directory', async () => {
    await appendTheOldVersionsEvent();
    const later = await createLaterFreeze();
    expect(later.status).toBe(201);
    const before = await listedIds();
    expect(before).toEqual([
      [poisonId, '0000-01-01T00:00:00'],
      [later.body.id, '2026-04-01T09:00:00'],
    ]);

    await app.close();
    await startOnDataDir();
    await caughtUp();
    expect(await listedIds()).toEqual(before);
    expect((await app.request('GET', '/readyz', { token: null })).status).toBe(200);
  });
});
