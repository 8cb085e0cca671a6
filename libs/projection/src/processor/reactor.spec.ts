import { CommandService } from '@switchyard/event-store/application';
import { describeEachDatabase } from '@switchyard/testing';
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

  it('reacts to each event once live, and after a crash between side effect and checkpoint records nothing twice', async () => {
    const prefix = uniqueName('react');
    const requested = `${prefix}.Requested`;
    const done = `${prefix}.Done`;
    const sideEffects: string[] = [];
    const outcomes: Array<boolean> = [];
    let crash = true;
    let reacted: () => void = () => undefined;
    const firstReaction = new Promise<void>((resolve) => (reacted = resolve));

    const reactor: Reactor = {
      name: prefix,
      eventTypes: [requested],
      async react(event, context) {
        sideEffects.push(event.eventId);
        const outcome = await context.issue(`${prefix}-done`, recordDone(done), { source: event.eventId });
        outcomes.push(outcome.alreadyApplied === true);
        if (!crash) return;
        // The process dies here: the command is stored, the checkpoint has not moved.
        reacted();
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        throw new Error('killed');
      },
    };
    const runner = () =>
      new ProcessorRunner(reactor, {
        executor: env.executor,
        store: env.store,
        commands: new CommandService(env.store),
        logger: new RecordingLogger(),
      });

    const source = await appendTypes(env.store, `${prefix}-requests`, [requested]);
    const first = runner();
    first.start();
    await firstReaction;
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
});
