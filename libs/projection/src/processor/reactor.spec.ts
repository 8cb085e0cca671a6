import { CommandService } from '@switchyard/event-store/application';
import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { recordDone } from '../test/record-done';
import type { Reactor } from './reactor';
import { ProcessorRunner } from './processor-runner';

describeEachDatabase('A reactor', (db) => {
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
      // As runnersOn sets them: a loaded CI machine can stall a commit for seconds.
      maxRetryDelayMs: 20,
      defaultWaitTimeoutMs: 20_000,
    });

  it('reacts to each event once live, and after a crash between side effect and checkpoint records nothing twice', async () => {
    const prefix = uniqueName('react');
    const requested = `${prefix}.Requested`;
    const done = `${prefix}.Done`;
    const sideEffects: string[] = [];
    const outcomes: Array<boolean> = [];
    let crash = true;

    const reactor: Reactor = {
      name: prefix,
      eventTypes: [requested],
      async react(event, context) {
        sideEffects.push(event.eventId);
        const outcome = await context.issue(`${prefix}-done`, recordDone(done), { source: event.eventId });
        outcomes.push(outcome.alreadyApplied === true);
        if (!crash) return;
        // The process dies here: the command is stored, the checkpoint has not moved.
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        throw new Error('killed');
      },
    };
    const runner = () => runnerOf(reactor);

    const source = await appendTypes(env.store, `${prefix}-requests`, [requested]);
    const first = runner();
    first.start();
    await eventually('the first reaction to store its command', async () => outcomes.length > 0, {
      timeoutMs: scaledWait(20_000),
    });
    await first.stop();
    expect(first.position()).toBe('start');

    crash = false;
    const second = runner();
    second.start();
    try {
      expect(await second.waitFor(source)).toBe(true);
      const later = await appendTypes(env.store, `${prefix}-requests`, [requested]);
      expect(await second.waitFor(later)).toBe(true);
    } finally {
      await second.stop();
    }

    const { events } = await env.store.readStream(`${prefix}-done`);
    expect(events.map((event) => event.type)).toEqual([done, done]);
    expect(events[0]!.metadata).toMatchObject({ causationId: sideEffects[0] });
    expect(sideEffects).toHaveLength(3);
    expect(sideEffects[0]).toBe(sideEffects[1]);
    expect(outcomes).toEqual([false, true, false]);
  });

  it('startsAtHead: one added to a store with a history never reacts to it, and keeps its place after a restart', async () => {
    const prefix = uniqueName('react-head');
    const happened = `${prefix}.Happened`;
    const seen: string[] = [];
    const reactor: Reactor = {
      name: prefix,
      eventTypes: [happened],
      startsAtHead: true,
      async react(event) {
        seen.push(event.eventId);
      },
    };
    const runner = () => runnerOf(reactor);

    await appendTypes(env.store, `${prefix}-history`, [happened, happened]);
    const first = runner();
    first.start();
    // Its checkpoint is placed at the head before anything else is appended.
    await eventually('the first start to place its checkpoint', async () => first.position() !== null, {
      timeoutMs: scaledWait(20_000),
    });
    const whileRunning = await appendTypes(env.store, `${prefix}-live`, [happened]);
    try {
      expect(await first.waitFor(whileRunning)).toBe(true);
    } finally {
      await first.stop();
    }
    // Recorded while it was down: still after its first start, so it reacts after the restart.
    const whileDown = await appendTypes(env.store, `${prefix}-live`, [happened]);
    const second = runner();
    second.start();
    try {
      expect(await second.waitFor(whileDown)).toBe(true);
    } finally {
      await second.stop();
    }

    const { events: history } = await env.store.readStream(`${prefix}-history`);
    const { events: live } = await env.store.readStream(`${prefix}-live`);
    expect(seen).toEqual(live.map((event) => event.eventId));
    expect(seen).not.toEqual(expect.arrayContaining([history[0]!.eventId]));
  });
});
