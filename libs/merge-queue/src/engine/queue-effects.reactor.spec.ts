import {
  CodeHostError,
  type CodeHost,
  type MergeRequest,
  type PullRequestSnapshot,
} from '@switchyard/code-host';
import { pullRequestSnapshotFixture } from '@switchyard/config';
import type { EventStore, RecordedEvent } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { FixedClock } from '@switchyard/kernel';
import { OwnershipLostError, type ReactionContext } from '@switchyard/projection';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import { QueueDesk } from './queue-desk';
import { createQueueEffectsReactor } from './queue-effects.reactor';
import { RepositoryConfigurations } from './repository-configuration';
import { createStatusCommentsReactor } from './status-comments.reactor';

const REPOSITORY = 'acme/widgets';
const STREAM = mergeQueueStreamId(REPOSITORY, 'main');

/**
 * A code host that keeps just enough of a repository to be honest about merges: a merged pull
 * request stays merged, and GitHub refuses to merge it a second time.
 */
class RecordingCodeHost {
  readonly merges: number[] = [];
  readonly drafts: number[] = [];
  private readonly merged = new Map<number, string>();
  private nextNumber = 100;

  getRepository = async () => ({
    owner: 'acme',
    name: 'widgets',
    fullName: REPOSITORY,
    defaultBranch: 'main',
  });
  configuration: string | null = null;
  getConfiguration = async () =>
    this.configuration === null
      ? null
      : { path: '.mergify.yml' as const, content: this.configuration, sha: 'c0', ref: null };
  readonly comments: Array<{ number: number; body: string }> = [];
  comment = async (_r: unknown, number: number, body: string) => {
    this.comments.push({ number, body });
    return { id: this.comments.length, url: '' };
  };
  getBranchHead = async (_r: unknown, name: string) => ({ name, sha: 'base0' });
  createBranch = async (_r: unknown, name: string, sha: string) => ({ name, sha });
  updateBranch = async (_r: unknown, name: string, sha: string) => ({ name, sha });
  mergeIntoBranch = async (_r: unknown, name: string) => ({ name, sha: `tip-of-${name}` });
  createDraftPullRequest = async () => {
    const number = this.nextNumber++;
    this.drafts.push(number);
    return { number, headSha: `draft-head-${number}`, url: '' };
  };
  closePullRequest = async () => undefined;
  deleteBranch = async () => undefined;
  readonly labelled: string[] = [];
  addLabels = async (_r: unknown, _n: number, labels: string[]) => {
    this.labelled.push(...labels);
    return labels;
  };
  removeLabel = async () => undefined;
  createCheckRun = async () => ({ id: 1 });
  mergePullRequest = async (_r: unknown, number: number, _request: MergeRequest) => {
    if (this.merged.has(number))
      throw new CodeHostError('not-mergeable', 'Pull Request is not mergeable', 405);
    this.merges.push(number);
    const sha = `merge-of-${number}`;
    this.merged.set(number, sha);
    return { sha };
  };
  getPullRequest = async (_r: unknown, number: number): Promise<PullRequestSnapshot> => ({
    ...pullRequestSnapshotFixture(),
    number,
    merged: this.merged.has(number),
    mergeCommitSha: this.merged.get(number) ?? null,
    state: this.merged.has(number) ? 'closed' : 'open',
  });
}

/** A command service that dies once, right before recording the result of a merge. */
class CrashingBeforeMergeResult extends CommandService {
  crashed = false;
  override handle: CommandService['handle'] = (streamId, decider, command, metadata, options) => {
    if (!this.crashed && (command as MergeQueueCommand).kind === 'merged') {
      this.crashed = true;
      return Promise.reject(new Error('process killed between the merge and its result'));
    }
    return super.handle(streamId, decider, command, metadata, options);
  };
}

const lastEvent = async (store: EventStore): Promise<RecordedEvent> => {
  const { events } = await store.readStream(STREAM);
  return events[events.length - 1]!;
};

const context = {
  signal: new AbortController().signal,
  assertOwnership: () => undefined,
} as unknown as ReactionContext;

/** Pull request 7 queued with a `@mergify queue` comment at `at`. */
const queueSeven = (at: number): MergeQueueCommand => ({
  kind: 'enqueue',
  repository: REPOSITORY,
  baseRef: 'main',
  at,
  pullRequest: 7,
  queueName: 'default',
  priority: 2000,
  priorityRuleName: null,
  allowCheckInterruption: false,
  headSha: 'head-7',
  scopes: [],
  allScopes: false,
  dependsOn: [],
  trigger: 'Command: queue',
});

describe('merge-queue effects reactor', () => {
  it('a crash between a merge and its result: the restart reconciles, the pull request merges once', async () => {
    const store = new InMemoryEventStore();
    const commands = new CrashingBeforeMergeResult(store);
    const host = new RecordingCodeHost();
    const codeHost = host as unknown as CodeHost;
    const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
    const desk = new QueueDesk(store, commands, new RepositoryConfigurations(codeHost));
    const reactor = createQueueEffectsReactor({ desk, codeHost, clock });
    const at = () => clock.now().getTime();

    await desk.issue(queueSeven(at()));
    // The planner asked for a draft: the reactor opens it and records it.
    await reactor.react(await lastEvent(store), context);
    expect(host.drafts).toEqual([100]);
    const { state } = await desk.state(REPOSITORY, 'main');
    const batch = state.batches[0]!;
    expect(batch).toMatchObject({ phase: 'running', checkPullRequest: 100 });

    await desk.issue({
      kind: 'checks_reported',
      repository: REPOSITORY,
      baseRef: 'main',
      at: at(),
      batchId: batch.id,
      attempt: batch.attempt,
      conclusion: 'success',
      unsuccessfulChecks: [],
    });
    const passed = await lastEvent(store);
    await expect(reactor.react(passed, context)).rejects.toThrow('process killed');
    expect(host.merges).toEqual([7]);

    // The runner reacts to the same event again after the restart (its checkpoint never moved).
    await reactor.react(passed, context);
    expect(host.merges).toEqual([7]);
    const { events } = await store.readStream(STREAM);
    expect(events.filter((e) => e.type === 'merge_queue.pull_request_merged')).toHaveLength(1);
    expect(events.find((e) => e.type === 'merge_queue.pull_request_left')?.data).toMatchObject({
      pullRequest: 7,
      merged: true,
      dequeueCode: 'PR_MERGED',
    });
    expect((await desk.state(REPOSITORY, 'main')).state.pullRequests).toEqual({});
  });

  it.each([
    ['all', ['🟠 queued', '🔄 checks started']],
    ['outcomes', []],
    ['none', []],
  ])(
    'status_comments %s: the comments reactor posts on entering the queue and on starting its checks',
    async (level, posted) => {
      const store = new InMemoryEventStore();
      const host = new RecordingCodeHost();
      host.configuration = `merge_queue:\n  status_comments: ${level}\n`;
      const codeHost = host as unknown as CodeHost;
      const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
      const desk = new QueueDesk(store, new CommandService(store), new RepositoryConfigurations(codeHost));
      const reactors = [
        createQueueEffectsReactor({ desk, codeHost, clock }),
        createStatusCommentsReactor({ desk, codeHost }),
      ];
      await desk.issue(queueSeven(clock.now().getTime()));
      // Each runner reads every event; the draft the first reaction opens adds checks_started.
      for (let read = 0; ; read++) {
        const { events } = await store.readStream(STREAM);
        if (read >= events.length) break;
        for (const reactor of reactors)
          if (reactor.eventTypes?.includes(events[read]!.type) ?? true)
            await reactor.react(events[read]!, context);
      }
      expect(host.comments.map((comment) => comment.number)).toEqual(posted.map(() => 7));
      posted.forEach((start, index) => expect(host.comments[index]!.body).toContain(start));
    },
  );

  it('fencing: once the reactor lost its ownership mid-reaction, it makes no further code-host call', async () => {
    const store = new InMemoryEventStore();
    const host = new RecordingCodeHost();
    const codeHost = host as unknown as CodeHost;
    const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
    const desk = new QueueDesk(store, new CommandService(store), new RepositoryConfigurations(codeHost));
    const reactor = createQueueEffectsReactor({ desk, codeHost, clock });
    await desk.issue(queueSeven(clock.now().getTime()));
    // The lease runs out right after the first call (the queued label) of the reaction.
    let checks = 0;
    const losing = {
      signal: new AbortController().signal,
      assertOwnership: () => {
        if (++checks > 1) throw new OwnershipLostError('merge_queue.effects');
      },
    } as unknown as ReactionContext;
    const entered = (await store.readStream(STREAM)).events.find(
      (event) => event.type === 'merge_queue.pull_request_entered',
    )!;
    await expect(reactor.react(entered, losing)).rejects.toBeInstanceOf(OwnershipLostError);
    expect(host.labelled).toEqual(['queued']);
    expect(host.drafts).toEqual([]);
    const { events } = await store.readStream(STREAM);
    expect(events.map((event) => event.type)).not.toContain('merge_queue.checks_started');
  });
});
