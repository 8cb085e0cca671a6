import { FixedClock } from '@switchyard/kernel';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { SANDBOX_BOT } from './forge-transaction';
import { userNamed } from './github-shapes';
import * as checks from './checks';
import * as git from './repository';
import * as pulls from './pulls';
import { SandboxForge } from './sandbox-forge';
import { sandboxServiceToken } from '../service-token';
import type { Timers } from './timers';

/** Timers a test fires by hand: no waiting, and a restart can be shown between start and finish. */
class ManualTimers implements Timers {
  private next = 0;
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  setTimeout(callback: () => void, ms: number): unknown {
    const handle = ++this.next;
    this.pending.set(handle, { callback, ms });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const { callback } of due) callback();
  }
}

const API = 'http://sandbox.test/sandbox/github';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const author = userNamed('ada');

describeEachDatabase('sandbox forge', (db) => {
  let executor: SqlExecutor;
  let timers: ManualTimers;
  const clock = new FixedClock(new Date('2026-03-02T10:00:00Z'));
  const open = () =>
    SandboxForge.open({
      executor,
      clock,
      timers,
      ciSeconds: 5,
      webhookSecret: null,
      serviceOrigin: () => null,
    });

  // One database for the file (opening one is the slow part); each test owns an owner of its own.
  let owner = 'acme';
  let owners = 0;
  beforeAll(async () => {
    executor = await db.open();
  });
  afterAll(() => executor.close());
  beforeEach(() => {
    timers = new ManualTimers();
    owner = `acme-${++owners}`;
  });

  async function pullWith(forge: SandboxForge, file: string, text: string) {
    await forge.run(author, API, (tx) =>
      git.putContents(tx, owner, 'widgets', 'README.md', { message: 'readme', content: base64('hi\n') }),
    );
    const main = await forge.run(author, API, (tx) => git.getRef(tx, owner, 'widgets', 'heads/main'));
    await forge.run(author, API, (tx) =>
      git.createRef(tx, owner, 'widgets', { ref: 'refs/heads/topic', sha: main.object.sha }),
    );
    await forge.run(author, API, (tx) =>
      git.putContents(tx, owner, 'widgets', file, {
        message: 'change',
        content: base64(text),
        branch: 'topic',
      }),
    );
    return forge.run(author, API, (tx) =>
      pulls.createPull(tx, owner, 'widgets', { title: 't', head: 'topic', base: 'main' }),
    );
  }

  const ciRuns = (forge: SandboxForge, ref: string) =>
    forge.run(SANDBOX_BOT, API, (tx) => checks.listCheckRuns(tx, owner, 'widgets', ref, {}));

  it('starts the ci check on the head and completes it with the model’s verdict when its timer fires', async () => {
    const forge = await open();
    const pull = await pullWith(forge, 'broken.txt', 'sandbox-ci: fail\nsandbox-ci: seconds 30\n');
    expect((await ciRuns(forge, pull.head.sha)).check_runs).toEqual([
      expect.objectContaining({ name: 'ci', status: 'in_progress', conclusion: null }),
    ]);
    expect([...timers.pending.values()].map((timer) => timer.ms)).toContain(30_000);
    timers.fireAll();
    await forge.run(SANDBOX_BOT, API, async () => undefined);
    expect((await ciRuns(forge, pull.head.sha)).check_runs).toEqual([
      expect.objectContaining({ name: 'ci', status: 'completed', conclusion: 'failure' }),
    ]);
    await forge.close();
  });

  it('resumes a pending CI run after a restart, and keeps the generated webhook secret', async () => {
    const first = await open();
    const pull = await pullWith(first, 'ok.txt', 'fine\n');
    const secret = first.webhookSecret;
    await first.close();

    timers = new ManualTimers();
    const second = await open();
    expect(second.webhookSecret).toBe(secret);
    await second.start();
    expect(timers.pending.size).toBeGreaterThan(0);
    timers.fireAll();
    await second.run(SANDBOX_BOT, API, async () => undefined);
    expect((await ciRuns(second, pull.head.sha)).check_runs).toEqual([
      expect.objectContaining({ name: 'ci', status: 'completed', conclusion: 'success' }),
    ]);
    await second.close();
  });

  it('queues every webhook of a change in the same transaction, in order', async () => {
    const forge = await open();
    await pullWith(forge, 'a.txt', 'a\n');
    const { rows } = await executor.query<{ event: string; action: string | null }>(
      "SELECT event, payload->>'action' AS action FROM sandbox_deliveries WHERE payload->'installation'->>'id' IS NOT NULL AND (payload->'repository'->>'full_name' = $1 OR payload->'repositories'->0->>'full_name' = $1) ORDER BY id",
      [`${owner}/widgets`],
    );
    expect(rows.map((row) => (row.action ? `${row.event}.${row.action}` : row.event))).toEqual([
      'installation.created',
      'push',
      'push',
      'push',
      'pull_request.opened',
      'check_run.created',
    ]);
    await forge.close();
  });

  it('refuses a failed operation whole: nothing written, nothing sent', async () => {
    const forge = await open();
    await pullWith(forge, 'a.txt', 'a\n');
    const before = await executor.query('SELECT count(*) AS n FROM sandbox_deliveries');
    await expect(
      forge.run(author, API, (tx) =>
        pulls.createPull(tx, owner, 'widgets', { title: 't', head: 'topic', base: 'main' }),
      ),
    ).rejects.toMatchObject({ status: 422 });
    const after = await executor.query('SELECT count(*) AS n FROM sandbox_deliveries');
    expect(after.rows).toEqual(before.rows);
    await forge.close();
  });
  it("accepts the sandbox's stored service token as the App's bot, the same one after a restart, and nothing like it", async () => {
    const forge = await open();
    const token = await sandboxServiceToken(executor);
    const known = { hostUser: () => null, isAdminKey: async () => false };
    expect(await forge.authenticate(token, known)).toEqual(SANDBOX_BOT);
    const wrong = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    expect(await forge.authenticate(wrong, known)).toBeNull();
    expect(await forge.authenticate('sys_', known)).toBeNull();
    expect(await sandboxServiceToken(executor)).toBe(token);
    await forge.close();
  });
});
