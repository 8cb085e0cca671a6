import { EngineLayout, openMergeQueueEngine } from '@switchyard/runtime';
import { CODE_HOST, type CodeHost } from '@switchyard/code-host';
import type { EventStore } from '@switchyard/event-store';
import { mergeQueueDecider } from '@switchyard/merge-queue';
import {
  PeriodicRunner,
  type Ownership,
  type OwnershipSource,
  type ProcessorHost,
} from '@switchyard/projection';
import { eventually } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/**
 * A lease the test takes away the way a Redis lease goes for an owner that paused past its ttl:
 * `held()` turns false at once, and nothing tells the holder (`lost` is not aborted), so only the
 * fence checked before each command can stop it. Refused to everyone while revoked.
 */
class RevocableLease implements OwnershipSource {
  readonly kind = 'revocable lease';
  private revoked = false;
  attempts = 0;

  async tryAcquire(): Promise<Ownership | null> {
    this.attempts += 1;
    if (this.revoked) return null;
    let released = false;
    return {
      lost: new AbortController().signal,
      held: () => !released && !this.revoked,
      release: async () => {
        released = true;
      },
    };
  }

  get held(): boolean {
    return !this.revoked;
  }

  revoke(): void {
    this.revoked = true;
  }

  restore(): void {
    this.revoked = false;
  }
}

/** The store, with every append recorded, and the lease taken away right after the first one. */
function revokingAfterFirstAppend(store: EventStore, lease: RevocableLease, appends: string[]): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'appendToStream') {
        return async (...args: Parameters<EventStore['appendToStream']>) => {
          const held = lease.held;
          const result = await target.appendToStream(...args);
          appends.push(`${held ? 'held' : 'NOT HELD'}: ${args[0]}`);
          if (appends.length === 1) lease.revoke();
          return result;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The merge queue's timer is a periodic processor under a lease (one per partition of the
 * engine's repositories). Once its lease is lost it must issue no command: not the rest of the
 * tick in flight, and no tick after it, so an engine that paused past its lease never acts beside
 * its successor.
 */
describe('the queue timer under a lease that is lost mid-tick', () => {
  jest.setTimeout(300_000);
  let app: TestApp;
  let runner: PeriodicRunner | null = null;

  beforeAll(async () => {
    // CI that never ends: nothing but the timer moves these queues once their batches are due.
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '3600' });
    // This process's own timer stands down: the one under test is the only one ticking.
    await app.running.projections!.runner('merge_queue.timer')!.stop();
  }, 120_000);
  afterAll(async () => {
    await runner?.stop();
    await app?.close();
  });

  it('issues no command once its lease is lost, in the tick in flight or after it', async () => {
    const teams: SandboxTeam[] = [];
    for (const name of ['first', 'second', 'third']) {
      const team = new SandboxTeam(app, uniqueRepository(`timer-fence-${name}`));
      await team.commitFile('main', 'README.md', '# widgets\n');
      // A batch of two that waits for a second pull request, then starts alone: on a tick. The wait
      // outlasts the engine's own echoes of the queueing (its label and check run come back as
      // webhooks, and a command on their account would start the batch instead of the timer).
      await team.commitFile(
        'main',
        '.mergify.yml',
        'queue_rules:\n  - name: default\n    batch_size: 2\n    batch_max_wait_time: 15 s\n',
      );
      await team.comment(await team.openChange('change'), '@mergify queue');
      teams.push(team);
    }
    // Due: a tick now would start the lone pull request's batch, its wait being over.
    const due = async (team: SandboxTeam) => {
      const state = await team.queue();
      const tick = { kind: 'tick', repository: team.repository, baseRef: 'main', at: Date.now() } as const;
      return Object.keys(state.pullRequests).length === 1 && mergeQueueDecider.decide(tick, state).length > 0;
    };
    for (const team of teams) await team.until('its batch is due', () => due(team), 120_000);
    const host = app.running.projections as ProcessorHost;
    const head = await app.running.storage.store.headPosition();
    expect(await host.waitFor(host.names, head, 60_000)).toBe(true);

    const lease = new RevocableLease();
    const appends: string[] = [];
    const { timers } = openMergeQueueEngine({
      logger: app.running.logger,
      storage: {
        ...app.running.storage,
        store: revokingAfterFirstAppend(app.running.storage.store, lease, appends),
      },
      codeHost: app.running.app.get<CodeHost>(CODE_HOST),
      freshness: host,
      layout: new EngineLayout(1),
    });
    runner = new PeriodicRunner(timers[0]!, {
      executor: app.running.storage.executor,
      logger: app.running.logger,
      ownership: lease,
      lockRetryMs: 20,
    });
    runner.start();

    // The first tick's first command went through; the lease went with it. The runner stops acting
    // and asks for its lease again, in vain, several times over.
    await eventually('the timer to have asked for its lease again', async () => lease.attempts >= 4);
    expect(runner.status().state).toBe('waiting-for-lock');
    expect(appends).toHaveLength(1);
    expect(appends[0]).toMatch(/^held: /);
    const dueLeft = [];
    for (const team of teams) if (await due(team)) dueLeft.push(team);
    // It had more to do: the other queues are still due, untouched.
    expect(dueLeft).toHaveLength(2);

    // With its lease back it carries on where it stopped.
    lease.restore();
    for (const team of dueLeft) await team.until('its batch started', async () => !(await due(team)));
  });
});
