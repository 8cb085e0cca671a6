import { CommandService } from '@switchyard/event-store/application';
import type { Position, RecordedEvent } from '@switchyard/event-store';
import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import { readCheckpoint } from '../checkpoint/checkpoint-store';
import { ProcessorRunner } from '../processor/processor-runner';
import type { Reactor } from '../processor/reactor';
import { openProjectionTestEnv, uniqueName, type ProjectionTestEnv } from '../test/projection-test-env';
import { recordDone } from '../test/record-done';
import { RecordingLogger } from '../test/recording-logger';
import { partitionReactor } from './partition-reactor';
import { partitionName } from './partitions';

const PARTITIONS = 4;

describeEachDatabase('A reactor split into partitions', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());
  const runnerOf = (reactor: Reactor) =>
    new ProcessorRunner(reactor, {
      executor: env.executor,
      store: env.store,
      commands: new CommandService(env.store),
      logger: new RecordingLogger(),
      maxRetryDelayMs: 20,
      defaultWaitTimeoutMs: 20_000,
    });

  it('continues the unpartitioned reactor: from its checkpoint, repeating no result of a reaction it began', async () => {
    const prefix = uniqueName('split');
    const requested = `${prefix}.Requested`;
    const done = `${prefix}.Done`;
    const reactions: string[] = [];
    const alreadyApplied: string[] = [];
    let crashOn: string | null = null;
    let crashed = false;
    const reactor: Reactor = {
      name: prefix,
      eventTypes: [requested],
      async react(event, context) {
        reactions.push(event.eventId);
        const outcome = await context.issue(`${prefix}-done`, recordDone(done), { source: event.eventId });
        if (outcome.alreadyApplied) alreadyApplied.push(event.eventId);
        if (event.eventId !== crashOn) return;
        // The process dies here, on the way to the upgrade: the result is stored, the checkpoint has not moved.
        crashed = true;
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        throw new Error('killed');
      },
    };
    const append = async (keys: readonly string[]): Promise<RecordedEvent[]> => {
      const stream = `${prefix}-requests`;
      const { events: before } = await env.store.readStream(stream);
      await env.store.appendToStream(
        stream,
        keys.map((key) => ({ type: requested, data: { key } })),
        { expectedRevision: 'any' },
      );
      const { events } = await env.store.readStream(stream);
      return events.slice(before.length);
    };
    const keyOf = (event: RecordedEvent) => (event.data as { key: string }).key;

    // Before the upgrade: one reactor, under its own name, reacts to the history and dies while
    // reacting to its last event.
    const history = await append(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    crashOn = history[4]!.eventId;
    const unpartitioned = runnerOf(reactor);
    unpartitioned.start();
    await eventually('the reactor to die reacting to its last event', async () => crashed, {
      timeoutMs: scaledWait(20_000),
    });
    await unpartitioned.stop();
    const stoppedAt = (await readCheckpoint(env.executor, prefix))!.position;
    expect(stoppedAt).toBe(history[3]!.position);

    // After it: the partitions, each starting where the reactor stopped.
    crashOn = null;
    const partitions = partitionReactor(reactor, PARTITIONS, keyOf);
    expect(partitions.map((p) => p.name)).toEqual(
      Array.from({ length: PARTITIONS }, (_, index) => partitionName(prefix, index, PARTITIONS)),
    );
    const runners = partitions.map(runnerOf);
    for (const runner of runners) runner.start();
    try {
      const live = await append(['zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda']);
      const head: Position = live[live.length - 1]!.position;
      for (const runner of runners) expect(await runner.waitFor(head)).toBe(true);

      const counts = new Map<string, number>();
      for (const id of reactions) counts.set(id, (counts.get(id) ?? 0) + 1);
      // The history up to the checkpoint is not reacted to again; the reaction the crash cut short
      // is repeated once (its side effects may run again), the live events are reacted to once.
      expect(history.map((event) => counts.get(event.eventId))).toEqual([1, 1, 1, 1, 2]);
      expect(live.map((event) => counts.get(event.eventId))).toEqual(live.map(() => 1));
      // The repeated reaction is keyed by the reactor's name, so its result is not stored twice.
      expect(alreadyApplied).toEqual([history[4]!.eventId]);
      // One result per event (the partitions record theirs side by side, in no common order).
      const { events: results } = await env.store.readStream(`${prefix}-done`);
      expect(results.map((event) => (event.data as { source: string }).source).sort()).toEqual(
        [...history, ...live].map((event) => event.eventId).sort(),
      );
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  });
});
