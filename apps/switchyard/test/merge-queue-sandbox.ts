import { loadStreamState } from '@switchyard/event-store/application';
import { mergeQueueStreamId, snapshottingMergeQueueDecider, type QueueState } from '@switchyard/merge-queue';
import { scaledWait } from '@switchyard/testing';
import type { TestApp } from './harness';

/**
 * A team using the sandbox forge the way it would use GitHub: commits, pull requests and
 * `@mergify` comments, all through GitHub's REST paths. Shared by the merge-queue e2e specs.
 */
export class SandboxTeam {
  constructor(
    private readonly app: TestApp,
    readonly repository: string,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub shapes are asserted field by field
  forge<T = any>(method: string, path: string, body?: unknown) {
    return this.app.request<T>(method, `/sandbox/github/repos/${this.repository}${path}`, {
      body,
      token: this.app.adminKey,
    });
  }

  async commitFile(branch: string, path: string, text: string): Promise<void> {
    const existing = await this.forge('GET', `/contents/${path}?ref=${branch}`);
    const put = await this.forge('PUT', `/contents/${path}`, {
      message: `edit ${path}`,
      content: Buffer.from(text, 'utf8').toString('base64'),
      branch,
      ...(existing.status === 200 ? { sha: existing.body.sha } : {}),
    });
    if (![200, 201].includes(put.status)) throw new Error(`commit ${path}: ${put.status} ${put.text}`);
  }

  async branchFromMain(branch: string): Promise<void> {
    const main = await this.forge('GET', '/git/ref/heads/main');
    const created = await this.forge('POST', '/git/refs', {
      ref: `refs/heads/${branch}`,
      sha: main.body.object.sha,
    });
    if (created.status !== 201) throw new Error(`branch ${branch}: ${created.status} ${created.text}`);
  }

  /** Opens a pull request adding `changes/<name>.txt`; a failing one carries the sandbox CI's fail marker. */
  async openChange(name: string, options: { failing?: boolean } = {}): Promise<number> {
    const text = `change ${name}\n${options.failing ? 'sandbox-ci: fail\n' : ''}`;
    return this.openPullRequest(name, `changes/${name}.txt`, text);
  }

  /** Opens a pull request that adds `path` with `text` on a branch of its own. */
  async openPullRequest(name: string, path: string, text: string): Promise<number> {
    await this.branchFromMain(name);
    await this.commitFile(name, path, text);
    const opened = await this.forge('POST', '/pulls', { title: `Add ${name}`, head: name, base: 'main' });
    if (opened.status !== 201) throw new Error(`pull ${name}: ${opened.status} ${opened.text}`);
    return opened.body.number as number;
  }

  /**
   * A ledger queued in batches of three (60 s wait, one check at a time) and three pull requests:
   * `cents` and `euros` each add a file of their own and pass alone, but a tree holding both fails
   * (sandbox-ci `provides`/`conflicts-with`); `docs` passes anywhere.
   */
  async openSemanticConflict(): Promise<{ cents: number; docs: number; euros: number }> {
    await this.commitFile('main', 'README.md', '# ledger\n');
    await this.commitFile(
      'main',
      '.mergify.yml',
      [
        'queue_rules:',
        '  - name: default',
        '    batch_size: 3',
        '    batch_max_wait_time: 60 s',
        'merge_queue:',
        '  max_parallel_checks: 1',
        '',
      ].join('\n'),
    );
    const cents = await this.openPullRequest(
      'amounts-in-cents',
      'ledger/amounts.txt',
      'amounts are integers of cents\n# sandbox-ci: provides money-in-cents\n',
    );
    const docs = await this.openPullRequest('docs', 'docs/ledger.md', 'How the ledger works.\n');
    const euros = await this.openPullRequest(
      'report-in-euros',
      'ledger/report.txt',
      'the report reads amounts as euros\n# sandbox-ci: conflicts-with money-in-cents\n',
    );
    return { cents, docs, euros };
  }

  async comment(number: number, body: string): Promise<void> {
    const posted = await this.forge('POST', `/issues/${number}/comments`, { body });
    if (posted.status !== 201) throw new Error(`comment: ${posted.status} ${posted.text}`);
  }

  async pull(number: number): Promise<{ merged: boolean; state: string; labels: string[] }> {
    const { body } = await this.forge('GET', `/pulls/${number}`);
    return {
      merged: body.merged,
      state: body.state,
      labels: body.labels.map((l: { name: string }) => l.name),
    };
  }

  /** The conclusions of the check runs on the pull request's head (null while one runs). */
  async checksOf(number: number): Promise<(string | null)[]> {
    const { body: pull } = await this.forge('GET', `/pulls/${number}`);
    const { body } = await this.forge('GET', `/commits/${pull.head.sha}/check-runs`);
    return body.check_runs.map((run: { conclusion: string | null }) => run.conclusion);
  }

  /** Whether `path` exists on main. */
  async onMain(path: string): Promise<boolean> {
    const { status } = await this.forge('GET', `/contents/${path}?ref=main`);
    if (status !== 200 && status !== 404) throw new Error(`contents ${path}: ${status}`);
    return status === 200;
  }

  async queue(): Promise<QueueState> {
    const loaded = await loadStreamState(
      this.app.running.storage.store,
      mergeQueueStreamId(this.repository, 'main'),
      snapshottingMergeQueueDecider,
    );
    return loaded.state;
  }

  /** The queue's events, in order. */
  async queueEvents(): Promise<{ type: string; data: Record<string, unknown> }[]> {
    const { events } = await this.app.running.storage.store.readStream(
      mergeQueueStreamId(this.repository, 'main'),
    );
    return events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> }));
  }

  /** Each leave of the queue so far: [pull request, dequeue code]. */
  async leaves(): Promise<unknown[][]> {
    return (await this.queueEvents())
      .filter((e) => e.type === 'merge_queue.pull_request_left')
      .map((e) => [e.data.pullRequest, e.data.dequeueCode]);
  }

  /**
   * Waits (on the store's progress, with a short pause between looks) until the condition holds;
   * by default up to 300 s on an idle machine, stretched with its load as every hang-catching wait.
   */
  async until(
    what: string,
    condition: () => Promise<boolean>,
    timeoutMs = scaledWait(300_000),
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) {
        const recent = (await this.queueEvents()).slice(-15).map((e) => e.type);
        throw new Error(`timed out waiting for ${what}; the queue's last events: ${recent.join(', ')}`);
      }
      const head = await this.app.running.storage.store.headPosition();
      const processors = this.app.running.projections!;
      await processors.waitFor(['merge_queue.effects', 'merge_queue.intake'], head, 2_000);
      // A timer, not setImmediate: the forge's webhooks and CI timers need turns of the loop, and
      // a hot loop of in-memory queries takes the CPU they run on.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
