import type { ScheduleFreeze } from '../domain/freeze/scheduled-freeze';
import { alice, RecordedHistory, releaseBot } from '../testing/recorded-history';
import { repositoryControlsLogMapping } from './log-mapping';

const at = (iso: string) => new Date(iso);
const repository = 'acme/widgets';
const freezeId = '11111111-2222-3333-4444-555555555555';

const logOf = async (history: RecordedHistory) =>
  (await history.all()).flatMap((event) => {
    const mapper = repositoryControlsLogMapping[event.type];
    if (!mapper) throw new Error(`no log mapping for ${event.type}`);
    return mapper(event);
  });

const repositoryLevel = { repository, pullRequest: null, baseRef: null, trigger: 'api' };

describe('repository controls log mapping', () => {
  it('maps pause create, update and delete with the actor behind each', async () => {
    const history = new RecordedHistory();
    await history.pause({
      type: 'PauseMergeQueue',
      repository,
      reason: 'incident',
      actor: alice,
      at: at('2026-04-23T12:00:00Z'),
    });
    await history.pause({
      type: 'PauseMergeQueue',
      repository,
      reason: 'still',
      actor: releaseBot,
      at: at('2026-04-23T12:30:00Z'),
    });
    await history.pause({
      type: 'UnpauseMergeQueue',
      repository,
      actor: alice,
      at: at('2026-04-23T13:00:00Z'),
    });
    expect(await logOf(history)).toEqual([
      {
        ...repositoryLevel,
        type: 'queue.pause.create',
        receivedAt: at('2026-04-23T12:00:00Z'),
        metadata: {
          reason: 'incident',
          created_by: { type: 'user', id: 42, name: 'alice' },
          created_by_staff: false,
        },
      },
      {
        ...repositoryLevel,
        type: 'queue.pause.update',
        receivedAt: at('2026-04-23T12:30:00Z'),
        metadata: { reason: 'still', updated_by: releaseBot, updated_by_staff: false },
      },
      {
        ...repositoryLevel,
        type: 'queue.pause.delete',
        receivedAt: at('2026-04-23T13:00:00Z'),
        metadata: { deleted_by: alice, deleted_by_staff: false },
      },
    ]);
  });

  it('maps freeze create, update and delete with attribute snapshots, actors and times', async () => {
    const history = new RecordedHistory();
    const schedule: ScheduleFreeze = {
      type: 'ScheduleFreeze',
      freezeId,
      repository,
      reason: 'release',
      start: '2026-07-01T09:00:00',
      end: null,
      timezone: 'Europe/Paris',
      matchingConditions: [{ or: ['base=main', 'base=next'] }],
      excludeConditions: ['label=hotfix'],
      actor: alice,
      at: at('2026-06-01T08:00:00Z'),
    };
    await history.freeze(schedule);
    await history.freeze({
      type: 'ChangeFreeze',
      freezeId,
      repository,
      changes: { end: '2026-07-03T09:00:00' },
      actor: releaseBot,
      at: at('2026-06-02T08:00:00Z'),
    });
    await history.freeze({
      type: 'CancelFreeze',
      freezeId,
      repository,
      deleteReason: 'shipped early',
      actor: alice,
      at: at('2026-06-03T08:00:00.250Z'),
    });

    const attributes = {
      reason: 'release',
      start: '2026-07-01T09:00:00',
      end: null,
      timezone: 'Europe/Paris',
      matching_conditions: [{ or: ['base=main', 'base=next'] }],
      exclude_conditions: ['label=hotfix'],
    };
    const changed = { ...attributes, end: '2026-07-03T09:00:00' };
    const log = await logOf(history);
    expect(log).toEqual([
      {
        ...repositoryLevel,
        type: 'scheduled_freeze.create',
        receivedAt: at('2026-06-01T08:00:00Z'),
        metadata: {
          scheduled_freeze_attributes: attributes,
          created_by: alice,
          created_by_staff: false,
          created_at: '2026-06-01T08:00:00.000Z',
        },
      },
      {
        ...repositoryLevel,
        type: 'scheduled_freeze.update',
        receivedAt: at('2026-06-02T08:00:00Z'),
        metadata: {
          scheduled_freeze_attributes_before: attributes,
          scheduled_freeze_attributes_after: changed,
          updated_by: releaseBot,
          updated_by_staff: false,
          updated_at: '2026-06-02T08:00:00.000Z',
        },
      },
      {
        ...repositoryLevel,
        type: 'scheduled_freeze.delete',
        receivedAt: at('2026-06-03T08:00:00.250Z'),
        metadata: {
          scheduled_freeze_attributes: changed,
          reason: 'shipped early',
          deleted_by: alice,
          deleted_by_staff: false,
          deleted_at: '2026-06-03T08:00:00.250Z',
        },
      },
    ]);
    // Snapshot keys in the spec's order, as a JSON consumer would see them.
    expect(Object.keys(log[0]!.metadata.scheduled_freeze_attributes as object)).toEqual([
      'reason',
      'start',
      'end',
      'timezone',
      'matching_conditions',
      'exclude_conditions',
    ]);
  });

  it('logs an empty reason for a freeze deleted before it began without one', async () => {
    const history = new RecordedHistory();
    await history.freeze({
      type: 'ScheduleFreeze',
      freezeId,
      repository,
      reason: 'later',
      start: '2099-01-01T00:00:00',
      end: null,
      timezone: 'UTC',
      matchingConditions: [],
      excludeConditions: [],
      actor: alice,
      at: at('2026-06-01T08:00:00Z'),
    });
    await history.freeze({
      type: 'CancelFreeze',
      freezeId,
      repository,
      deleteReason: null,
      actor: alice,
      at: at('2026-06-02T08:00:00Z'),
    });
    const [, deleted] = await logOf(history);
    expect(deleted!.metadata.reason).toBe('');
  });

  it('has a row for every repository-control event type and nothing else', () =>
    expect(Object.keys(repositoryControlsLogMapping).sort()).toEqual([
      'merge_queue.pause_reason_changed',
      'merge_queue.paused',
      'merge_queue.unpaused',
      'scheduled_freeze.cancelled',
      'scheduled_freeze.changed',
      'scheduled_freeze.scheduled',
    ]));
});
