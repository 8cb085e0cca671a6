import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { InMemoryEventStore } from '../in-memory/in-memory-event-store';
import {
  foldingQueueDecider,
  snapshottingQueueDecider,
  type QueueCommand,
  type QueueEvent,
} from '../testing/queue-decider';
import { CommandService } from './command-service';
import { loadStreamState } from './stream-state';

const STREAM = 'queue-acme/widgets';

const command: fc.Arbitrary<QueueCommand> = fc.oneof(
  fc.record({ kind: fc.constant('enqueue' as const), pullRequest: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('dequeue' as const), pullRequest: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('pause' as const), reason: fc.constantFrom('red main', 'freeze') }),
  fc.record({ kind: fc.constant('unpause' as const) }),
);

/** Snapshots a reader must not trust: of another history (wrong event id), or ahead of the stream. */
const foreignSnapshot = fc.record({
  revisionOffset: fc.integer({ min: -3, max: 3 }),
  state: fc.record({
    queue: fc.array(fc.integer({ min: 90, max: 99 })),
    pausedFor: fc.constant('forged'),
    changes: fc.nat(),
  }),
});

const step = fc.oneof(
  { weight: 9, arbitrary: command.map((c) => ({ kind: 'command' as const, command: c })) },
  { weight: 1, arbitrary: foreignSnapshot.map((s) => ({ kind: 'forge' as const, ...s })) },
);

describe('snapshots', () => {
  it('snapshot plus tail decides and folds exactly as the whole stream does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(step, { maxLength: 80 }),
        async (every, steps) => {
          const snapshotting = snapshottingQueueDecider(every);
          const withSnapshots = new InMemoryEventStore();
          const folding = new InMemoryEventStore();
          const fast = new CommandService(withSnapshots);
          const plain = new CommandService(folding);
          for (const s of steps) {
            if (s.kind === 'forge') {
              const { revision } = await withSnapshots.readStream(STREAM, { maxCount: 0 });
              await withSnapshots.snapshots.write({
                streamId: STREAM,
                name: snapshotting.snapshots!.name,
                version: snapshotting.snapshots!.version,
                revision: revision + BigInt(s.revisionOffset),
                eventId: randomUUID(),
                state: s.state,
              });
              continue;
            }
            const ours = await fast.handle(STREAM, snapshotting, s.command);
            const theirs = await plain.handle(STREAM, foldingQueueDecider, s.command);
            expect(ours.events).toEqual(theirs.events);
            expect(ours.revision).toBe(theirs.revision);
          }
          const fromSnapshot = await loadStreamState(withSnapshots, STREAM, snapshotting);
          const fullFold = await loadStreamState(folding, STREAM, foldingQueueDecider);
          expect(fromSnapshot.state).toEqual(fullFold.state);
          expect(fromSnapshot.revision).toBe(fullFold.revision);
          expect(fullFold.foldedAfter).toBe(-1n);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a long stream is folded from its snapshot, not from the start', async () => {
    const store = new InMemoryEventStore();
    const commands = new CommandService(store);
    const decider = snapshottingQueueDecider(50);
    for (let pr = 1; pr <= 120; pr++) {
      await commands.handle(STREAM, decider, { kind: 'enqueue', pullRequest: pr });
    }
    const loaded = await loadStreamState(store, STREAM, decider);
    expect(loaded.revision).toBe(119n);
    // Snapshots were taken at revisions 49 and 99, when 50 events had been folded since the last one.
    expect(loaded.foldedAfter).toBe(99n);
    expect(loaded.state.queue).toHaveLength(120);
    // Another version of the state's shape never reads these snapshots.
    expect((await loadStreamState(store, STREAM, snapshottingQueueDecider(50, 2))).foldedAfter).toBe(-1n);
  });

  it('a writer that lands between load and append is still detected, and the command is decided again', async () => {
    const store = new InMemoryEventStore();
    const decider = snapshottingQueueDecider(1);
    const commands = new CommandService(store);
    for (let pr = 1; pr <= 5; pr++)
      await commands.handle(STREAM, decider, { kind: 'enqueue', pullRequest: pr });
    expect((await loadStreamState(store, STREAM, decider)).foldedAfter).toBeGreaterThanOrEqual(3n);

    // Another writer appends right after the command loaded its state.
    const racing = Object.create(store) as InMemoryEventStore;
    let raced = false;
    racing.appendToStream = async (...args) => {
      if (!raced) {
        raced = true;
        await store.appendToStream(STREAM, [{ type: 'Paused', data: { reason: 'raced' } }], {
          expectedRevision: 'any',
        });
      }
      return store.appendToStream(...args);
    };
    const once = new CommandService(racing, { maxAttempts: 1 });
    await expect(once.handle(STREAM, decider, { kind: 'enqueue', pullRequest: 6 })).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      actual: 5n,
    });

    raced = false;
    const retrying = new CommandService(racing);
    const outcome = await retrying.handle(STREAM, decider, { kind: 'dequeue', pullRequest: 1 });
    const events: QueueEvent[] = [{ type: 'Dequeued', data: { pullRequest: 1 } }];
    expect(outcome.events).toEqual(events);
    expect(outcome.revision).toBe(7n);
  });
});
