import {
  type ApplicationKeyCommand,
  applicationKeyDecider,
  applicationKeyStreamId,
  type ServiceTokenCommand,
  serviceTokenDecider,
  serviceTokenStreamId,
} from '@switchyard/auth';
import { ensureEventStoreSchema, SqlEventStore } from '@switchyard/event-store/sql';
import { type Position, type RecordedEvent } from '@switchyard/event-store';
import { type SqlExecutor } from '@switchyard/sql';
import { type Actor, type Decider, DomainError, MIN_STORABLE_INSTANT_MS } from '@switchyard/kernel';
import type { Projection } from '@switchyard/projection';
import {
  calendarFreezes,
  type Condition,
  type MergeQueuePauseCommand,
  mergeQueuePauseDecider,
  mergeQueuePauseStreamId,
  type ScheduledFreezeCommand,
  scheduledFreezeDecider,
  scheduledFreezeStreamId,
} from '@switchyard/repository-controls';
import { describeEachDatabase } from '@switchyard/testing';
import fc from 'fast-check';
import { switchyardProjections } from './switchyard-projections';

/**
 * Closes issue 14 §1 as a class: whatever command a decider accepts — extreme dates and zones, any
 * unicode, NUL, lone surrogates, long text, nested conditions — the SQL event store takes its events
 * and every projection Switchyard runs applies them, on PGlite and on PostgreSQL. Freeze instants
 * also read back unchanged. Fixed seed, bounded runs: `npm test` stays reproducible and quick.
 */
const SEED = 1414;
const RUNS = 100;

// ---- arbitraries ---------------------------------------------------------------------------

/** Characters that break stores, and ordinary ones around them. */
const awkwardChar = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d\ude80', 'é', 'e\u0301', '"', '\\', "'", '\n', ' '),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 3, arbitrary: fc.string({ unit: awkwardChar, maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', '🚀'), fc.constantFrom(254, 255, 256, 9_999, 10_000, 10_001))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const naiveTime = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00',
    '0000-12-31T23:59:59',
    '0001-01-01T00:00:00',
    '0001-01-01T14:00:00',
    '0099-12-31T23:00:00',
    '0100-01-01T00:00:00',
    '9999-12-31T23:59:59',
    '9999-12-31T09:59:59',
    '2026-03-29T02:30:00',
    '2026-10-25T02:30:00',
    '2099-01-01',
    '2099-01-01T00:00:00Z',
    'soon',
  ),
  fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
    })
    .map(
      (t) => `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:00`,
    ),
);
const zone = fc.constantFrom(
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Pacific/Kiritimati',
  'Etc/GMT+12',
  'Etc/GMT-14',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Mars/Olympus_Mons',
);
/**
 * Mostly leaves the condition language accepts (any graphemes after `label=x`, so no blank value or
 * stray leading quote), so that many freezes are accepted; sometimes any text at all.
 */
const leaf = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((t) => `label=x${t}`),
  },
  { weight: 1, arbitrary: text },
);
const condition: fc.Arbitrary<Condition> = fc.letrec<{ condition: Condition; block: Condition }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('block'),
    // `not` holds one condition or one and/or block, never another `not`.
    fc.record({ not: fc.oneof(leaf, tie('block')) }),
  ),
  block: fc.oneof(
    fc.record({ and: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
  ),
})).condition;
const conditions = fc.array(condition, { maxLength: 3 });
const repository = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('acme/widgets', 'Acme/Gadgets') }, text);

/** One step of a scenario; ids and times are filled in when it runs. */
type Step =
  | { kind: 'pause'; repository: string; reason: string }
  | { kind: 'unpause'; repository: string }
  | {
      kind: 'schedule';
      slot: number;
      repository: string;
      reason: string;
      start: string | null;
      end: string | null;
      timezone: string;
      matching: Condition[];
      exclude: Condition[];
    }
  | {
      kind: 'change';
      slot: number;
      changes: Partial<{ reason: string; start: string | null; end: string | null; timezone: string }>;
      matching?: Condition[];
    }
  | { kind: 'cancel'; slot: number; deleteReason: string | null }
  | { kind: 'key'; slot: number; name: string; login: string }
  | { kind: 'token'; slot: number; name: string; expiresInDays: number | null }
  | { kind: 'revoke'; slot: number };

const slot = fc.integer({ min: 0, max: 2 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pause' as const), repository, reason: text }),
  fc.record({ kind: fc.constant('unpause' as const), repository }),
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('schedule' as const),
      slot,
      repository,
      reason: text,
      start: fc.option(naiveTime),
      end: fc.option(naiveTime),
      timezone: zone,
      matching: conditions,
      exclude: conditions,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('change' as const),
        slot,
        // Mostly one key at a time, as clients send them, so that many changes are accepted.
        changes: fc.oneof(
          fc.record({ reason: text }),
          fc.record({ start: fc.option(naiveTime) }),
          fc.record({ end: fc.option(naiveTime) }),
          fc.record({ timezone: zone }),
          fc.record(
            { reason: text, start: fc.option(naiveTime), end: fc.option(naiveTime), timezone: zone },
            { requiredKeys: [] },
          ),
        ),
        matching: conditions,
      },
      { requiredKeys: ['kind', 'slot', 'changes'] },
    ),
  },
  fc.record({ kind: fc.constant('cancel' as const), slot, deleteReason: fc.option(text) }),
  fc.record({
    kind: fc.constant('key' as const),
    slot,
    name: text,
    login: fc.oneof(fc.constant('acme'), text),
  }),
  fc.record({
    kind: fc.constant('token' as const),
    slot,
    name: text,
    expiresInDays: fc.option(fc.constantFrom(1, 365, 3_000_000, 2_900_000_000)),
  }),
  fc.record({ kind: fc.constant('revoke' as const), slot }),
);

// ---- running a scenario through the real deciders into the SQL store ----------------------

const actor: Actor = { type: 'application', id: '6f1c2a9e-2f4b-4a55-9c55-1b2b3c4d5e6f', name: 'bot' };
const SECRET_HASH = 'a'.repeat(64);
const DAY_MS = 86_400_000;

interface Tally {
  accepted: Record<string, number>;
}

class Scenario {
  private readonly streams = new Map<string, unknown[]>();
  /** The repository each freeze slot was scheduled in, so changes and cancels address it there. */
  private readonly freezeRepositories = new Map<number, string>();
  private clock = Date.parse('2026-03-01T00:00:00Z');

  constructor(
    private readonly store: SqlEventStore,
    private readonly run: number,
    private readonly tally: Tally,
  ) {}

  private id(slotNumber: number, kind: number): string {
    return `00000000-${pad(kind, 4)}-4000-8000-${pad(this.run * 10 + slotNumber, 12)}`;
  }

  async play(steps: Step[]): Promise<void> {
    for (const item of steps) {
      this.clock += 3_600_000;
      await this.apply(item, new Date(this.clock));
    }
  }

  private async apply(item: Step, at: Date): Promise<void> {
    switch (item.kind) {
      case 'pause':
      case 'unpause': {
        const command: MergeQueuePauseCommand =
          item.kind === 'pause'
            ? { type: 'PauseMergeQueue', repository: item.repository, reason: item.reason, actor, at }
            : { type: 'UnpauseMergeQueue', repository: item.repository, actor, at };
        return this.decide(mergeQueuePauseStreamId(item.repository), mergeQueuePauseDecider, command);
      }
      case 'schedule':
      case 'change':
      case 'cancel': {
        const freezeId = this.id(item.slot, 1);
        if (item.kind === 'schedule') this.freezeRepositories.set(item.slot, item.repository);
        const repository = this.freezeRepositories.get(item.slot) ?? 'acme/widgets';
        const command: ScheduledFreezeCommand =
          item.kind === 'schedule'
            ? {
                type: 'ScheduleFreeze',
                freezeId,
                repository,
                reason: item.reason,
                start: item.start,
                end: item.end,
                timezone: item.timezone,
                matchingConditions: item.matching,
                excludeConditions: item.exclude,
                actor,
                at,
              }
            : item.kind === 'change'
              ? {
                  type: 'ChangeFreeze',
                  freezeId,
                  repository,
                  changes: {
                    ...item.changes,
                    ...(item.matching ? { matchingConditions: item.matching } : {}),
                  },
                  actor,
                  at,
                }
              : { type: 'CancelFreeze', freezeId, repository, deleteReason: item.deleteReason, actor, at };
        return this.decide(scheduledFreezeStreamId(freezeId), scheduledFreezeDecider, command);
      }
      case 'key': {
        const command: ApplicationKeyCommand = {
          type: 'CreateApplicationKey',
          keyId: this.id(item.slot, 2),
          name: item.name,
          scope: 'admin',
          account: { id: 7, login: item.login },
          secretHash: SECRET_HASH,
          at,
        };
        return this.decide(applicationKeyStreamId(command.keyId), applicationKeyDecider, command);
      }
      case 'token': {
        const command: ServiceTokenCommand = {
          type: 'IssueServiceToken',
          tokenId: this.id(item.slot, 3),
          name: item.name,
          account: { id: 7, login: 'acme' },
          secretHash: SECRET_HASH,
          at,
          expiresAt:
            item.expiresInDays === null ? null : new Date(at.getTime() + item.expiresInDays * DAY_MS),
        };
        return this.decide(serviceTokenStreamId(command.tokenId), serviceTokenDecider, command);
      }
      case 'revoke': {
        const keyId = this.id(item.slot, 2);
        await this.decide(applicationKeyStreamId(keyId), applicationKeyDecider, {
          type: 'RevokeApplicationKey',
          keyId,
          at,
        });
        const tokenId = this.id(item.slot, 3);
        return this.decide(serviceTokenStreamId(tokenId), serviceTokenDecider, {
          type: 'RevokeServiceToken',
          tokenId,
          at,
        });
      }
    }
  }

  private async decide<S, C, E extends { type: string; data: object }>(
    streamId: string,
    decider: Decider<S, C, E>,
    command: C,
  ): Promise<void> {
    const history = (this.streams.get(streamId) ?? []) as E[];
    let events: E[];
    try {
      events = decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
    } catch (error) {
      // A refusal is the decider doing its job; anything else is a bug the property reports.
      if (error instanceof DomainError) return;
      throw error;
    }
    if (events.length === 0) return;
    await this.store.appendToStream(
      streamId,
      events.map((event) => ({ type: event.type, data: event.data as never })),
      { expectedRevision: 'any' },
    );
    this.streams.set(streamId, [...history, ...events]);
    for (const event of events) this.tally.accepted[event.type] = (this.tally.accepted[event.type] ?? 0) + 1;
  }
}

// ---- the property ----------------------------------------------------------------------------

const handles = (projection: Projection, event: RecordedEvent): boolean =>
  projection.eventTypes === undefined || projection.eventTypes.includes(event.type);

describeEachDatabase('every command a decider accepts projects everywhere', (db) => {
  let sql: SqlExecutor;
  let store: SqlEventStore;
  const projections = switchyardProjections();

  beforeAll(async () => {
    sql = await db.open();
    await ensureEventStoreSchema(sql);
    store = await SqlEventStore.open(sql);
    for (const projection of projections) await sql.transaction((tx) => projection.setup(tx));
  });
  afterAll(() => sql.close());

  it('applies on every projection, and freeze instants read back as recorded', async () => {
    const tally: Tally = { accepted: {} };
    let run = 0;
    let after: Position | 'start' = 'start';

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run++;
        await new Scenario(store, run, tally).play(steps);
        const { events } = await store.readAll({ after, limit: 10_000 });
        if (events.length === 0) return;
        after = events[events.length - 1]!.position;

        for (const projection of projections) {
          const mine = events.filter((event) => handles(projection, event));
          await sql.transaction((tx) => projection.apply(tx, mine));
        }

        const expected = new Map<string, number>();
        for (const event of events) {
          if (event.type !== 'scheduled_freeze.scheduled' && event.type !== 'scheduled_freeze.changed')
            continue;
          const data = event.data as { freezeId: string; startAt: string };
          expected.set(data.freezeId, Date.parse(data.startAt));
        }
        const read = new Map<string, number>();
        for (const repositoryKey of new Set(
          events.map((event) => (event.data as { repository?: string }).repository),
        ))
          if (repositoryKey !== undefined)
            for (const freeze of await calendarFreezes(sql, repositoryKey, new Date(MIN_STORABLE_INSTANT_MS)))
              read.set(freeze.id, freeze.startAt.getTime());
        for (const [id, startMs] of expected) if (read.has(id)) expect(read.get(id)).toBe(startMs);
      }),
      { seed: SEED, numRuns: RUNS },
    );

    // A generator that only produced refusals would prove nothing.
    process.stdout.write(`accepted events by type: ${JSON.stringify(tally.accepted)}\n`);
    expect(tally.accepted).toMatchObject({
      'merge_queue.paused': expect.any(Number),
      'scheduled_freeze.scheduled': expect.any(Number),
      'scheduled_freeze.changed': expect.any(Number),
      'scheduled_freeze.cancelled': expect.any(Number),
      'application_key.created': expect.any(Number),
      'service_token.issued': expect.any(Number),
    });
  }, 120_000);
});
