import type { CheckOnHead, CodeHost, PullRequestSnapshot } from '@switchyard/code-host';
import type { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config';
import type { RecordedEvent } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { FixedClock, isOutage } from '@switchyard/kernel';
import type { ReactionContext, ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { FreezeWatch } from './freeze-watch';
import { QueueDesk } from './queue-desk';
import { setUpIssuer } from './testing/engine-issuers';
import { createQueueIntakeReactor } from './queue-intake.reactor';
import { RepositoryConfigurations } from './repository-configuration';

const REPOSITORY = 'acme/widgets';
const STREAM = mergeQueueStreamId(REPOSITORY, 'main');
const DRAFT = 100;
const DRAFT_HEAD = 'd'.repeat(40);

/** The snapshots read model as a map: what the projection holds at the time of a reaction. */
class SnapshotsAtHand {
  readonly byNumber = new Map<number, PullRequestSnapshot>();
  find = async (_repository: string, number: number) => this.byNumber.get(number) ?? null;
  findMany = async (_repository: string, numbers: readonly number[]) =>
    new Map(numbers.flatMap((n) => (this.byNumber.has(n) ? [[n, this.byNumber.get(n)!] as const] : [])));
  openWithHead = async (_repository: string, sha: string) =>
    [...this.byNumber.values()].filter((s) => s.head.sha === sha && s.state === 'open');
}

const ciCheck = (state: CheckOnHead['state']): CheckOnHead => ({
  name: 'ci',
  appSlug: 'sandbox-ci',
  source: 'check-run',
  state,
  detailsUrl: null,
  startedAt: '2026-03-02T10:00:00Z',
  completedAt: state === 'pending' ? null : '2026-03-02T10:00:05Z',
});

const draftSnapshot = (head: string, checks: CheckOnHead[]): PullRequestSnapshot =>
  pullRequestSnapshotFixture({
    repository: { owner: 'acme', name: 'widgets', fullName: REPOSITORY, defaultBranch: 'main' },
    number: DRAFT,
    draft: true,
    head: { ref: 'mergify/merge-queue/0123456789', sha: head, repositoryFullName: REPOSITORY },
    checks,
  });

async function queueWithRunningDraft() {
  const store = new InMemoryEventStore();
  const commands = new CommandService(store);
  const codeHost = {
    getRepository: async () => ({
      owner: 'acme',
      name: 'widgets',
      fullName: REPOSITORY,
      defaultBranch: 'main',
    }),
    getConfiguration: async () => null,
  } as unknown as CodeHost;
  const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
  const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost));
  const setUp = setUpIssuer(commands);
  const snapshots = new SnapshotsAtHand();
  // Whether the read models include the event reacted to (a loaded machine lets them lag).
  const readModels = { caughtUp: true };
  const freshness: ReadModelFreshness = {
    assertRunning: async () => undefined,
    waitFor: async () => readModels.caughtUp,
  };
  const reactor = createQueueIntakeReactor({
    desk,
    codeHost,
    snapshots: snapshots as unknown as PullRequestSnapshots,
    freezes: { refresh: async () => undefined } as unknown as FreezeWatch,
    sql: {} as SqlQueryable,
    freshness,
    clock,
    logger: { warn: () => undefined, info: () => undefined },
  });
  const context = {
    signal: new AbortController().signal,
    assertOwnership: () => undefined,
    issue: (streamId: string, decider: never, command: never) =>
      commands.handle(streamId, decider, command, {}),
  } as unknown as ReactionContext;
  const at = clock.now().getTime();
  const where = { repository: REPOSITORY, baseRef: 'main', at };
  await desk.issue(setUp, {
    kind: 'enqueue',
    ...where,
    pullRequest: 7,
    queueName: 'default',
    priority: 2000,
    priorityRuleName: null,
    allowCheckInterruption: false,
    headSha: 'a'.repeat(40),
    scopes: [],
    allScopes: false,
    dependsOn: [],
    trigger: 'Command: queue',
  });
  snapshots.byNumber.set(
    7,
    pullRequestSnapshotFixture({
      repository: { owner: 'acme', name: 'widgets', fullName: REPOSITORY, defaultBranch: 'main' },
      number: 7,
      head: { ref: 'change-07', sha: 'a'.repeat(40), repositoryFullName: REPOSITORY },
    }),
  );
  const batch = (await desk.state(REPOSITORY, 'main')).state.batches[0]!;
  expect(batch.phase).toBe('preparing');
  // The effects reactor opened the draft on a commit CI has already judged.
  await desk.issue(setUp, {
    kind: 'draft_created',
    ...where,
    batchId: batch.id,
    attempt: batch.attempt,
    checkPullRequest: DRAFT,
    headSha: DRAFT_HEAD,
  });
  const events = async () => (await store.readStream(STREAM)).events;
  const started = (await events()).find((e) => e.type === 'merge_queue.checks_started')!;
  expect(started.data).toMatchObject({ checkHeadSha: DRAFT_HEAD });
  /** The intake reacts to the draft's read, as recorded after its `opened` webhook. */
  const draftRead = (snapshot: PullRequestSnapshot) => {
    snapshots.byNumber.set(DRAFT, snapshot);
    const read = {
      type: 'github.pull_request_read',
      position: '1',
      data: { repository: REPOSITORY, number: DRAFT, snapshot, reason: 'opened' },
    } as unknown as RecordedEvent;
    return reactor.react(read, context);
  };
  return { reactor, context, started, events, draftRead, readModels };
}

describe('merge-queue intake reactor', () => {
  it('judges a draft whose head CI already judged once its snapshot shows up after the checks started', async () => {
    const { reactor, context, started, events, draftRead } = await queueWithRunningDraft();
    // The checks start before the draft's webhook is recorded: no snapshot has that head yet.
    await reactor.react(started, context);
    expect((await events()).map((e) => e.type)).not.toContain('merge_queue.batch_passed');

    // No check run is created for a commit that has one: the draft's read is the only news.
    await draftRead(draftSnapshot(DRAFT_HEAD, [ciCheck('success')]));
    const log = await events();
    expect(log.map((e) => e.type)).toContain('merge_queue.batch_passed');
    expect(log.find((e) => e.type === 'merge_queue.checks_ended')?.data).toMatchObject({
      aborted: false,
      speculativeCheck: expect.objectContaining({ number: DRAFT, checksConclusion: 'success' }),
    });
  });

  it('does not judge a fact its read models have not reached: it fails as an outage, to be tried again', async () => {
    const { reactor, context, started, events, draftRead, readModels } = await queueWithRunningDraft();
    await reactor.react(started, context);
    readModels.caughtUp = false;
    const lagging = await draftRead(draftSnapshot(DRAFT_HEAD, [ciCheck('success')])).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isOutage(lagging)).toBe(true);
    expect((lagging as Error).message).toBe(
      'The read models code_host.pull_request_snapshots have not reached position 1 yet',
    );
    expect((await events()).map((e) => e.type)).not.toContain('merge_queue.batch_passed');

    readModels.caughtUp = true;
    await draftRead(draftSnapshot(DRAFT_HEAD, [ciCheck('success')]));
    expect((await events()).map((e) => e.type)).toContain('merge_queue.batch_passed');
  });

  it('judges a failing verdict the same way', async () => {
    const { reactor, context, started, events, draftRead } = await queueWithRunningDraft();
    await reactor.react(started, context);
    await draftRead(draftSnapshot(DRAFT_HEAD, [ciCheck('failure')]));
    const failed = (await events()).find((e) => e.type === 'merge_queue.batch_failed');
    expect(failed?.data).toMatchObject({ unsuccessfulChecks: [expect.objectContaining({ name: 'ci' })] });
  });

  it('waits while the snapshot shows another commit than the one checked, or checks still running', async () => {
    const { events, draftRead } = await queueWithRunningDraft();
    await draftRead(draftSnapshot('e'.repeat(40), [ciCheck('success')]));
    await draftRead(draftSnapshot(DRAFT_HEAD, [ciCheck('pending')]));
    const types = (await events()).map((e) => e.type);
    expect(types).not.toContain('merge_queue.batch_passed');
    expect(types).not.toContain('merge_queue.batch_failed');
  });
});
