import { isAtOrAfter } from '@switchyard/event-store';
import { describeEachDatabase } from '@switchyard/testing';
import { ProcessorRunner } from './processor-runner';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { readCheckpoint } from '../checkpoint/checkpoint-store';
import type { Projection } from '../projection';
import { ReadModelStoppedError } from '../freshness';
import { readYourWrite } from '../read-your-write';
import { RecordingLogger } from '../test/recording-logger';
import { readTally, tallyProjection } from '../test/tally-projection';
import { ProcessorHost } from './processor-host';

describeEachDatabase('ProcessorHost', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());

  it('runs every projection; a position is fresh once all of them include it; stopped, it times out', async () => {
    const prefix = uniqueName('host');
    const everything = tallyProjection({ name: `${prefix}_all`, streamPrefix: `${prefix}-` });
    const filtered = tallyProjection({
      name: `${prefix}_some`,
      streamPrefix: `${prefix}-`,
      eventTypes: [`${prefix}.Wanted`],
    });
    const host = ProcessorHost.of([everything, filtered], {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
    });
    host.start();
    try {
      expect(await host.waitFor(host.names, null)).toBe(true);
      const position = await appendTypes(env.store, `${prefix}-a`, [`${prefix}.Wanted`, `${prefix}.Other`]);
      expect(await host.waitFor(host.names, position)).toBe(true);
      for (const runner of host.runners) expect(isAtOrAfter(runner.position()!, position)).toBe(true);
      // What a read at the head may rely on without I/O: the lowest committed checkpoint of those named.
      const lowest = [...host.runners.map((runner) => runner.position()!)].sort()[0];
      expect(host.includedPosition(host.names)).toBe(lowest);
      expect(isAtOrAfter(host.includedPosition([filtered.name])!, position)).toBe(true);
      expect(host.status().map((status) => [status.name, status.lagging])).toEqual([
        [everything.name, false],
        [filtered.name, false],
      ]);
    } finally {
      await host.stop();
    }

    const later = await appendTypes(env.store, `${prefix}-a`, [`${prefix}.Other`]);
    expect(await host.waitFor(host.names, later, 50)).toBe(false);
  });

  it('tells a listener each checkpoint a read model commits, until it unsubscribes', async () => {
    const prefix = uniqueName('advance');
    const tally = tallyProjection({ name: `${prefix}_all`, streamPrefix: `${prefix}-` });
    const host = ProcessorHost.of([tally], {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
    });
    host.start();
    try {
      const heard: string[] = [];
      const unsubscribe = host.onAdvance(tally.name, (position) => heard.push(String(position)));
      const first = await appendTypes(env.store, `${prefix}-a`, [`${prefix}.One`]);
      expect(await host.waitFor([tally.name], first)).toBe(true);
      expect(heard.some((position) => position !== 'start' && isAtOrAfter(position, first))).toBe(true);
      unsubscribe();
      const count = heard.length;
      const second = await appendTypes(env.store, `${prefix}-a`, [`${prefix}.Two`]);
      expect(await host.waitFor([tally.name], second)).toBe(true);
      expect(heard).toHaveLength(count);
    } finally {
      await host.stop();
    }
  });

  it('is not fresh while one of its projections lags behind', async () => {
    const prefix = uniqueName('host');
    const running = new ProcessorRunner(
      tallyProjection({ name: `${prefix}_up`, streamPrefix: `${prefix}-` }),
      {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
      },
    );
    const idle = new ProcessorRunner(
      tallyProjection({ name: `${prefix}_idle`, streamPrefix: `${prefix}-` }),
      {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
      },
    );
    const host = new ProcessorHost([running, idle]);
    running.start();
    try {
      const position = await appendTypes(env.store, `${prefix}-a`, ['A']);
      expect(await running.waitFor(position)).toBe(true);
      expect(await host.waitFor(host.names, position, 50)).toBe(false);
      // A wait that names only the running one does not wait for the idle one.
      expect(await host.waitFor([running.name], position, 1)).toBe(true);
    } finally {
      await host.stop();
    }
  });

  it('refuses two runners for the same projection', () => {
    const projection = tallyProjection({ name: uniqueName('host'), streamPrefix: 'x-' });
    const options = { executor: env.executor, store: env.store, logger: new RecordingLogger() };
    expect(() => ProcessorHost.of([projection, projection], options)).toThrow(/Two runners/);
  });

  it('a poison event stops only its own processor: the others keep going, and writes for it are refused', async () => {
    const prefix = uniqueName('poison');
    const poison = `${prefix}.Poison`;
    const healthy = tallyProjection({ name: `${prefix}_healthy`, streamPrefix: `${prefix}-` });
    const doomed = tallyProjection({
      name: `${prefix}_doomed`,
      streamPrefix: `${prefix}-`,
      poisonType: poison,
    });
    const logger = new RecordingLogger();
    const host = ProcessorHost.of([healthy, doomed], {
      executor: env.executor,
      store: env.store,
      logger,
      maxRetryDelayMs: 5,
      maxAttemptsPerEvent: 3,
    });
    host.start();
    try {
      const before = await appendTypes(env.store, `${prefix}-a`, ['A']);
      expect(await host.waitFor(host.names, before)).toBe(true);
      await host.assertRunning(host.names);

      const poisoned = await appendTypes(env.store, `${prefix}-b`, [poison]);
      const stopped = await logger.entry('error', 'processor stopped');
      expect(stopped.message).toContain(
        `${doomed.name} stopped on ${poison} (stream ${prefix}-b, revision 0, position ${poisoned})`,
      );
      expect(await host.waitFor([doomed.name], poisoned, 60_000)).toBe(false);
      await expect(host.assertRunning([doomed.name, healthy.name])).rejects.toEqual(
        new ReadModelStoppedError([doomed.name]),
      );
      await expect(host.assertRunning([healthy.name])).resolves.toBeUndefined();

      const after = await appendTypes(env.store, `${prefix}-a`, ['B']);
      expect(await host.waitFor([healthy.name], after)).toBe(true);
      expect((await readTally(env.executor, healthy.name)).map((row) => row.type).sort()).toEqual([
        'A',
        'B',
        poison,
      ]);
      expect((await readTally(env.executor, doomed.name)).map((row) => row.type)).toEqual(['A']);
      expect(host.runner(doomed.name)!.status()).toMatchObject({
        state: 'failed',
        position: before,
        failedOn: { type: poison, streamId: `${prefix}-b`, revision: '0', position: poisoned, attempts: 3 },
      });
      expect((await readCheckpoint(env.executor, doomed.name))?.failure).toContain(`stopped on ${poison}`);
    } finally {
      await host.stop();
    }
  });

  it('a write waits only for its own read models: it is visible there while another one still lags', async () => {
    const prefix = uniqueName('lag');
    const fast = tallyProjection({ name: `${prefix}_fast`, streamPrefix: `${prefix}-` });
    const slow = tallyProjection({ name: `${prefix}_slow`, streamPrefix: `${prefix}-` });
    const host = ProcessorHost.of([fast, slow], {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
    });
    host.start();
    // The slow read model falls behind: its runner is paused (as while an operator rebuilds it).
    await host.runner(slow.name)!.stop();
    try {
      const written = await readYourWrite(host, [fast.name], async () => {
        const result = await env.store.appendToStream(`${prefix}-a`, [{ type: 'A', data: {} }], {
          expectedRevision: 'any',
        });
        return { position: result.lastPosition };
      });
      expect((await readTally(env.executor, fast.name)).map((row) => row.type)).toEqual(['A']);
      const slowAt = host.runner(slow.name)!.position();
      expect(slowAt === null || !isAtOrAfter(slowAt, written.position)).toBe(true);

      host.runner(slow.name)!.start();
      expect(await host.waitFor([slow.name], written.position)).toBe(true);
    } finally {
      await host.stop();
    }
  });

  it('keeps refusing writes after a restart until the processor gets past the event it stopped on', async () => {
    const prefix = uniqueName('restart');
    const poison = `${prefix}.Poison`;
    const name = `${prefix}_doomed`;
    const run = (projection: Projection, maxAttemptsPerEvent: number) => {
      const host = ProcessorHost.of([projection], {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
        maxRetryDelayMs: 5,
        maxAttemptsPerEvent,
      });
      host.start();
      return host;
    };
    const before = await appendTypes(env.store, `${prefix}-a`, ['A']);
    const poisoned = await appendTypes(env.store, `${prefix}-a`, [poison]);

    const first = run(tallyProjection({ name, streamPrefix: `${prefix}-`, poisonType: poison }), 2);
    expect(await first.waitFor([name], poisoned, 60_000)).toBe(false);
    await first.stop();

    // Restarted with the same bug: it retries, and writes stay refused meanwhile.
    const second = run(tallyProjection({ name, streamPrefix: `${prefix}-`, poisonType: poison }), 1_000_000);
    expect(await second.waitFor([name], before)).toBe(true);
    await expect(second.assertRunning([name])).rejects.toBeInstanceOf(ReadModelStoppedError);
    await second.stop();

    // Restarted with the fix: once past the event, writes go through again.
    const fixed = run(tallyProjection({ name, streamPrefix: `${prefix}-` }), 2);
    try {
      expect(await fixed.waitFor([name], poisoned)).toBe(true);
      await expect(fixed.assertRunning([name])).resolves.toBeUndefined();
      expect((await readCheckpoint(env.executor, name))?.failure).toBeNull();
    } finally {
      await fixed.stop();
    }
  });
});
