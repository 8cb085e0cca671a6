import type { CodeHost } from '@switchyard/code-host';
import { factsOfDelivery } from '@switchyard/github/webhooks';
import type { EventStore, RecordedEvent } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { FixedClock } from '@switchyard/kernel';
import { OwnershipLostError, reactionContext, type Reactor } from '@switchyard/projection';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { Enqueue, MergeQueueCommand } from '../domain/commands';
import { QueueDesk } from './queue-desk';
import { createQueueEffectsReactor } from './queue-effects.reactor';
import { RepositoryConfigurations } from './repository-configuration';
import { createStatusCommentsReactor } from './status-comments.reactor';
import { reactionsOf, setUpIssuer } from './testing/engine-issuers';
import { EngineReadModels } from './testing/engine-read-models';
import { OUR_LOGIN, RecordingCodeHost, REPOSITORY } from './testing/recording-code-host';

const STREAM = mergeQueueStreamId(REPOSITORY, 'main');

/** The first call of `operation` does its work, then the process dies before hearing the answer. */
function crashOnceAfter(
  host: RecordingCodeHost,
  operation: 'comment' | 'updateComment',
  message: string,
): void {
  const original = host[operation] as (...args: unknown[]) => Promise<unknown>;
  let crashed = false;
  (host as unknown as Record<string, unknown>)[operation] = async (...args: unknown[]) => {
    const answer = await original(...args);
    if (crashed) return answer;
    crashed = true;
    throw new Error(message);
  };
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

/** Pull request 7 queued with a `@mergify queue` comment at `at`. */
const queueSeven = (at: number): Enqueue => ({
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

interface Reaction {
  reactor: string;
  event: string;
  calls: Array<{ operation: string; pullRequest: number | null }>;
}

const PULL_REQUEST_READS = new Set(['getPullRequest', 'getPullRequestSummary']);
/** Writes after which a pull request reads differently (its head, its state). */
const PULL_REQUEST_CHANGES = new Set(['updatePullRequestBranch', 'mergePullRequest', 'closePullRequest']);
const NAMES_A_PULL_REQUEST = new Set([
  ...PULL_REQUEST_READS,
  ...PULL_REQUEST_CHANGES,
  'addLabels',
  'removeLabel',
  'comment',
  'listComments',
]);

/** Reads of a pull request that an earlier read of the same reaction already answered (no change between). */
function rereads(reaction: Reaction): string[] {
  const known = new Set<number>();
  const found: string[] = [];
  for (const { operation, pullRequest } of reaction.calls) {
    if (pullRequest === null) continue;
    if (PULL_REQUEST_CHANGES.has(operation)) known.delete(pullRequest);
    if (!PULL_REQUEST_READS.has(operation)) continue;
    if (known.has(pullRequest))
      found.push(`${reaction.reactor} on ${reaction.event} read #${pullRequest} again`);
    known.add(pullRequest);
  }
  return found;
}

describe('merge-queue effects reactor', () => {
  let readModels: EngineReadModels;
  beforeAll(async () => {
    readModels = await EngineReadModels.open();
  }, 60_000);
  afterAll(() => readModels?.close());
  it('a crash between a merge and its result: the restart reconciles, the pull request merges once', async () => {
    const store = new InMemoryEventStore();
    const commands = new CrashingBeforeMergeResult(store);
    const host = new RecordingCodeHost();
    const codeHost = host as unknown as CodeHost;
    const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
    const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost));
    const setUp = setUpIssuer(commands);
    const reaction = reactionsOf('merge_queue.effects', commands);
    const reactor = createQueueEffectsReactor({
      desk,
      codeHost,
      gate: readModels.mergeGate(store, desk, clock),
      clock,
    });
    const at = () => clock.now().getTime();

    await desk.issue(setUp, queueSeven(at()));
    // The planner asked for a draft: the reactor opens it and records it.
    const planned = await lastEvent(store);
    await reactor.react(planned, reaction(planned));
    expect(host.drafts).toEqual([100]);
    const { state } = await desk.state(REPOSITORY, 'main');
    const batch = state.batches[0]!;
    expect(batch).toMatchObject({ phase: 'running', checkPullRequest: 100 });

    await desk.issue(setUp, {
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
    await expect(reactor.react(passed, reaction(passed))).rejects.toThrow('process killed');
    expect(host.merges).toEqual([7]);

    // The runner reacts to the same event again after the restart (its checkpoint never moved).
    await reactor.react(passed, reaction(passed));
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

  /**
   * A queue, its two reactors and a way to run them over every event not read yet, as their
   * runners do; each reaction's code-host calls are kept (the operation, and the pull request
   * when the operation names one).
   */
  function queueWithReactors(configuration: string | null, host = new RecordingCodeHost()) {
    host.configuration = configuration;
    const store = new InMemoryEventStore();
    const reactions: Reaction[] = [];
    let calls: Reaction['calls'] | null = null;
    const codeHost = new Proxy(host, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const pullRequest = NAMES_A_PULL_REQUEST.has(String(property)) ? (args[1] as number) : null;
          calls?.push({ operation: String(property), pullRequest });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as unknown as CodeHost;
    const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
    const commands = new CommandService(store);
    const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost));
    const setUp = setUpIssuer(commands);
    /** The context the runtime gives `reactor` for its reaction to `event`. */
    const reaction = (reactor: Reactor, event: RecordedEvent) => reactionsOf(reactor.name, commands)(event);
    const effects = createQueueEffectsReactor({
      desk,
      codeHost,
      gate: readModels.mergeGate(store, desk, clock),
      clock,
    });
    let comments = createStatusCommentsReactor({ desk, codeHost });
    let read = 0;
    return {
      store,
      host,
      desk,
      /** Issues a command on the queue, as a spec sets it up. */
      issue: (command: MergeQueueCommand) => desk.issue(setUp, command),
      reaction,
      reactions,
      at: () => clock.now().getTime(),
      /** A new process: the comments reactor starts again with nothing in memory. */
      restartComments: () => (comments = createStatusCommentsReactor({ desk, codeHost })),
      comments: () => comments,
      async drain(): Promise<void> {
        for (; ; read++) {
          const { events } = await store.readStream(STREAM);
          if (read >= events.length) return;
          for (const reactor of [effects, comments])
            if (reactor.eventTypes?.includes(events[read]!.type) ?? true) {
              calls = [];
              reactions.push({ reactor: reactor.name, event: events[read]!.type, calls });
              await reactor.react(events[read]!, reaction(reactor, events[read]!));
              calls = null;
            }
        }
      },
      /** The sandbox CI's verdict on the running batch. */
      async checksPass(): Promise<void> {
        const batch = (await desk.state(REPOSITORY, 'main')).state.batches[0]!;
        await desk.issue(setUp, {
          kind: 'checks_reported',
          repository: REPOSITORY,
          baseRef: 'main',
          at: clock.now().getTime(),
          batchId: batch.id,
          attempt: batch.attempt,
          conclusion: 'success',
          unsuccessfulChecks: [],
        });
      },
    };
  }

  const eventOf = async (store: EventStore, type: string): Promise<RecordedEvent> =>
    (await store.readStream(STREAM)).events.find((event) => event.type === type)!;

  const IN_PLACE =
    'queue_rules:\n  - name: default\n    batch_size: 1\nmerge_queue:\n  max_parallel_checks: 1\n';

  it.each([
    [
      'checked in place, one commit behind its base',
      IN_PLACE,
      1,
      ['getPullRequestSummary', 'compare', 'updatePullRequestBranch', 'getPullRequestSummary'],
    ],
    ['checked in place, up to date with its base', IN_PLACE, 0, ['getPullRequestSummary', 'compare']],
    ['checked on a draft', null, 1, []],
  ])(
    'a pull request %s: each reaction reads a pull request once, again only after changing it, and never whole',
    async (_story, configuration, behindBase, preparation) => {
      const host = new RecordingCodeHost();
      host.behindBase = behindBase;
      const queue = queueWithReactors(configuration, host);
      await queue.issue(queueSeven(queue.at()));
      await queue.drain();
      await queue.checksPass();
      await queue.drain();
      expect(queue.host.merges).toEqual([7]);

      const calls = queue.reactions.flatMap((reaction) => reaction.calls);
      // The story does read pull requests (the one updated in place, or the draft it closes)...
      expect(calls.filter((call) => PULL_REQUEST_READS.has(call.operation)).length).toBeGreaterThan(0);
      // ...each at most once per state of it, and never with its reviews, files, commits and checks.
      expect(queue.reactions.flatMap(rereads)).toEqual([]);
      expect(calls.map((call) => call.operation)).not.toContain('getPullRequest');
      // Preparing a pull request in place costs exactly these calls.
      const prepared = calls
        .map((call) => call.operation)
        .filter((operation) =>
          ['getPullRequestSummary', 'compare', 'updatePullRequestBranch'].includes(operation),
        );
      if (configuration === IN_PLACE) expect(prepared).toEqual(preparation);
    },
  );

  it.each(['queue', 'requeue'])(
    '`@mergify %s` on a pull request already queued, while its batch is prepared: the draft is still created (issue 32)',
    async (word) => {
      const queue = queueWithReactors(null);
      await queue.issue(queueSeven(queue.at()));
      // The command lands before the effects reactor read the batch's preparation: the queue only
      // logs it, an event after the one that asked for the draft.
      await queue.issue({
        ...queueSeven(queue.at()),
        trigger: `Command: ${word}`,
        origin: {
          command: word,
          author: { login: 'octocat', id: 1, type: 'User' },
          commentId: 501,
          commandTrigger: 'comment',
          triggerCommentUrl: null,
        },
      });
      await queue.drain();
      expect(queue.host.drafts).toEqual([100]);
      expect((await queue.desk.state(REPOSITORY, 'main')).state.batches[0]).toMatchObject({
        phase: 'running',
        checkPullRequest: 100,
      });
      await queue.checksPass();
      await queue.drain();
      expect(queue.host.merges).toEqual([7]);
    },
  );

  it('GitHub answers update-branch before the branch moves: the checks and the merge are on the updated head', async () => {
    const host = new RecordingCodeHost();
    host.updateShowsAfterReads = 2;
    const queue = queueWithReactors(IN_PLACE, host);
    await queue.issue(queueSeven(queue.at()));
    await queue.drain();
    expect((await eventOf(queue.store, 'merge_queue.checks_started')).data).toMatchObject({
      checkHeadSha: 'updated-head-7',
    });
    await queue.checksPass();
    await queue.drain();
    expect(host.merges).toEqual([7]);
    expect(host.mergeRequests).toEqual([expect.objectContaining({ expectedHeadSha: 'updated-head-7' })]);
  });

  it('status_comments all: one comment created when the pull request enters, then edited as checks start and it merges', async () => {
    const queue = queueWithReactors(null);
    await queue.issue(queueSeven(queue.at()));
    await queue.drain();
    await queue.checksPass();
    await queue.drain();

    expect(queue.host.merges).toEqual([7]);
    expect(queue.host.created.map((comment) => comment.number)).toEqual([7]);
    expect(queue.host.edited).toHaveLength(2);
    // Only the first line looked for an existing comment; the process remembers the one it made.
    expect(queue.host.listings).toBe(1);
    const merged = await eventOf(queue.store, 'merge_queue.pull_request_left');
    expect(queue.host.commentsOn(7)).toEqual([
      [
        `<!-- switchyard:merge-queue-status event=${merged.eventId} -->`,
        '**Merge queue**: ✅ merged into `main` by the queue `default`.',
        '',
        'Earlier:',
        '- 🔄 checks started on draft #100.',
        '- 🟠 queued in `default` (Command: queue).',
      ].join('\n'),
    ]);
  });

  it.each([
    ['outcomes', ['✅ merged into `main`']],
    ['none', []],
  ])('status_comments %s: the comment says only what the level asks', async (level, lines) => {
    const queue = queueWithReactors(`merge_queue:\n  status_comments: ${level}\n`);
    await queue.issue(queueSeven(queue.at()));
    await queue.drain();
    await queue.checksPass();
    await queue.drain();
    expect(queue.host.merges).toEqual([7]);
    expect(queue.host.created).toHaveLength(lines.length);
    expect(queue.host.edited).toEqual([]);
    lines.forEach((line, index) => expect(queue.host.created[index]!.body).toContain(line));
  });

  it('a crash between creating the comment and the checkpoint: the restarted reactor finds it, and writes no second one', async () => {
    const host = new RecordingCodeHost();
    // The process dies right after GitHub created the comment, before the checkpoint moves.
    crashOnceAfter(host, 'comment', 'process killed after the POST');
    const queue = queueWithReactors(null, host);
    await queue.issue(queueSeven(queue.at()));
    const entered = await eventOf(queue.store, 'merge_queue.pull_request_entered');
    await expect(queue.comments().react(entered, queue.reaction(queue.comments(), entered))).rejects.toThrow(
      'process killed',
    );
    expect(host.commentsOn(7)).toHaveLength(1);

    queue.restartComments();
    await queue.comments().react(entered, queue.reaction(queue.comments(), entered));
    expect(host.commentsOn(7)).toHaveLength(1);
    expect(host.edited).toEqual([]);

    // The rest of the story edits that same comment.
    await queue.drain();
    await queue.checksPass();
    await queue.drain();
    expect(host.created).toHaveLength(1);
    expect(host.commentsOn(7)).toHaveLength(1);
    expect(host.commentsOn(7)[0]).toContain('**Merge queue**: ✅ merged');
    expect(host.commentsOn(7)[0]!.match(/queued in/g)).toHaveLength(1);
  });

  it('a crash between an edit and the checkpoint: the reaction run again adds its line once', async () => {
    const host = new RecordingCodeHost();
    crashOnceAfter(host, 'updateComment', 'process killed after the PATCH');
    const queue = queueWithReactors(null, host);
    await queue.issue(queueSeven(queue.at()));
    await expect(queue.drain()).rejects.toThrow('process killed');
    // The same runner reads the same event again (its checkpoint never moved).
    await queue.drain();
    expect(host.commentsOn(7)).toHaveLength(1);
    expect(host.commentsOn(7)[0]!.match(/checks started/g)).toHaveLength(1);
    expect(host.edited).toHaveLength(1);
  });

  it("a comment carrying the marker that someone else wrote is not the queue's; one deleted is replaced", async () => {
    const host = new RecordingCodeHost();
    await host.comment(REPOSITORY, 7, '<!-- switchyard:merge-queue-status -->\nnot the bot', 'mallory');
    const queue = queueWithReactors(null, host);
    await queue.issue(queueSeven(queue.at()));
    await queue.drain();
    expect(host.created).toHaveLength(1);
    expect(host.commentsOn(7)).toEqual([
      '<!-- switchyard:merge-queue-status -->\nnot the bot',
      expect.stringContaining('**Merge queue**: 🔄 checks started'),
    ]);

    const ours = [...host.conversation].find(([, comment]) => comment.author === OUR_LOGIN)![0];
    host.conversation.delete(ours);
    await queue.checksPass();
    await queue.drain();
    expect(host.created).toHaveLength(2);
    expect(host.commentsOn(7)[1]).toMatch(
      /^<!-- switchyard:merge-queue-status event=\S+ -->\n\*\*Merge queue\*\*: ✅ merged/,
    );
  });

  it('the service reads no command from its own status comment, created or edited', async () => {
    const queue = queueWithReactors(null);
    await queue.issue(queueSeven(queue.at()));
    await queue.drain();
    await queue.checksPass();
    await queue.drain();
    const bodies = [...queue.host.created.map((c) => c.body), ...queue.host.edited.map((e) => e.body)];
    expect(bodies).toHaveLength(3);
    for (const body of bodies)
      for (const action of ['created', 'edited'])
        expect(
          factsOfDelivery('issue_comment', {
            action,
            issue: { number: 7, pull_request: {} },
            comment: { id: 1, body, html_url: '', user: { login: OUR_LOGIN, id: 1, type: 'Bot' } },
            repository: { full_name: REPOSITORY, name: 'widgets', owner: { login: 'acme' } },
          }),
        ).toBeNull();
  });

  it('fencing: once the reactor lost its ownership mid-reaction, it makes no further code-host call', async () => {
    const store = new InMemoryEventStore();
    const host = new RecordingCodeHost();
    const codeHost = host as unknown as CodeHost;
    const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
    const commands = new CommandService(store);
    const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost));
    const reactor = createQueueEffectsReactor({
      desk,
      codeHost,
      gate: readModels.mergeGate(store, desk, clock),
      clock,
    });
    await desk.issue(setUpIssuer(commands), queueSeven(clock.now().getTime()));
    const entered = (await store.readStream(STREAM)).events.find(
      (event) => event.type === 'merge_queue.pull_request_entered',
    )!;
    // The lease runs out right after the first call (the queued label) of the reaction.
    let checks = 0;
    const losing = reactionContext('merge_queue.effects', entered, commands, {
      signal: new AbortController().signal,
      owner: () => ++checks <= 1,
    });
    await expect(reactor.react(entered, losing)).rejects.toBeInstanceOf(OwnershipLostError);
    expect(host.labelled).toEqual(['queued']);
    expect(host.drafts).toEqual([]);
    const { events } = await store.readStream(STREAM);
    expect(events.map((event) => event.type)).not.toContain('merge_queue.checks_started');
  });
});
