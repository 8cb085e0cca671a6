import type { EventStore } from '@switchyard/event-store';
import { loadStreamState } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { QueueEntry } from '../domain/state';
import { apiDequeue, dryRunDequeue, type DequeueImpact } from './dequeue-impact';
import { pullRequestDetailJson, pullRequestQueuedJson, type PullRequestDetailJson } from './detail-json';
import { estimateQueue } from './eta';
import type { MergeConditionsReader } from './merge-conditions';
import { QueueMetadata } from './queue-metadata';
import { QueueStatusReader, type LiveRevision, type QueueFold } from './queue-status.reader';
import { pullRequestsShownBy } from './status-fold';
import { queueStatusJson, type MergeQueueStatusJson, type RenderContext } from './status-json';

interface RenderedStatus {
  status: MergeQueueStatusJson;
  text: string;
}

interface LiveAnswer {
  repository: string;
  /** The read models' checkpoints the answer is known to hold at (null: unknown). */
  readModels: string | null;
  /** The queues' revisions and the snapshots' position it was rendered from. */
  key: string;
  revisions: LiveRevision[];
  position: string;
  /** The second of the "now" its estimates and schedules were reckoned from. */
  second: number;
  answer: Promise<RenderedStatus>;
  /** A rendering for a later second is under way (off the request path). */
  refreshing: boolean;
}

export class QueueNotFoundError extends Error {}
export class PullRequestNotQueuedError extends Error {}

const EMPTY_STATUS: MergeQueueStatusJson = {
  batches: [],
  waiting_pull_requests: [],
  mode: 'serial',
  scope_queues: {},
  pause: null,
};

/**
 * The status endpoints' queries. Live answers come from the status read model;
 * `at` answers fold the queue stream up to that moment from the read model's nearest earlier fold.
 */
export class QueueStatusService {
  readonly reader: QueueStatusReader;
  /**
   * The last live answer per repository and branch, kept as the JSON text it is sent as, while
   * neither the queue nor the snapshots moved and the second (the ETA's "now") is the same. The
   * rendering is kept while under way, so concurrent requests share it.
   */
  private readonly rendered = new Map<string, LiveAnswer>();
  private readonly metadata: QueueMetadata;
  /** The checkpoint read under way, and the one that starts after it (see readModelsSinceNow). */
  private checkpointRead: Promise<string | null> | null = null;
  private nextCheckpointRead: Promise<string | null> | null = null;

  constructor(
    sql: SqlQueryable,
    private readonly store: EventStore,
    private readonly clock: Clock,
    /** Judges merge conditions for the pull-request detail; without it, conditions_evaluation is null. */
    private readonly conditions: MergeConditionsReader | null = null,
  ) {
    this.reader = new QueueStatusReader(sql, store);
    this.metadata = new QueueMetadata(sql);
  }

  branches(repository: string): Promise<string[]> {
    return this.reader.queueBranches(repository);
  }

  /** Repositories of these accounts that have a merge queue (the dashboard's list). */
  repositories(accounts: readonly string[]): Promise<string[]> {
    return this.reader.queueRepositories(accounts);
  }

  branchesActiveBetween(repository: string, start: Date, end: Date): Promise<string[]> {
    return this.reader.branchesActiveBetween(repository, start.getTime(), end.getTime());
  }

  /** The queues now, or at `at`; 404 (QueueNotFoundError) for a moment before the first event. */
  private async queues(repository: string, at: Date | null, branch?: string): Promise<QueueFold[]> {
    if (at === null) return this.reader.live(repository, branch);
    const first = await this.reader.firstEventAt(repository);
    if (first === null || at.getTime() < first)
      throw new QueueNotFoundError('The repository had no merge queue at that time');
    return this.reader.asOf(repository, at.getTime(), branch);
  }

  /**
   * What rendering reads besides the folds. Merge conditions are judged for live answers only: they
   * read today's snapshots and configuration, which a past moment's answer must not depend on.
   */
  private async contexts(
    repository: string,
    queues: QueueFold[],
    now: number,
    options: { position?: string; live: boolean },
  ): Promise<RenderContext[]> {
    const numbers = [...new Set(queues.flatMap(({ fold }) => pullRequestsShownBy(fold)))];
    const running = queues.flatMap(({ fold }) => fold.queue.batches.filter((b) => b.phase === 'running'));
    const [snapshots, conditions] = await Promise.all([
      numbers.length === 0 ? new Map() : this.metadata.of(repository, numbers, options.position),
      options.live && this.conditions && running.length > 0
        ? this.conditions.judge(repository, running, new Date(now))
        : undefined,
    ]);
    return queues.map(({ fold }) => ({
      fold,
      estimates: estimateQueue(fold, now),
      snapshots,
      repository,
      ...(conditions ? { conditions } : {}),
    }));
  }

  async status(
    repository: string,
    options: { branch?: string; at?: Date | null },
  ): Promise<MergeQueueStatusJson> {
    const at = options.at ?? null;
    if (at === null) return (await this.live(repository, options.branch)).status;
    return this.render(repository, await this.queues(repository, at, options.branch), at.getTime(), {
      live: false,
    });
  }

  /** The same answer as `status`, as JSON text: a live answer is serialized once, not per request. */
  async statusText(repository: string, options: { branch?: string; at?: Date | null }): Promise<string> {
    if (options.at) return JSON.stringify(await this.status(repository, options));
    return (await this.live(repository, options.branch)).text;
  }

  /**
   * A live answer. The read models' checkpoints (one primary-key read) say whether anything moved
   * since the kept answer; if so, the queues' revisions and the snapshots' position for this
   * repository say whether its answer did. Only then is the request answered by a new rendering.
   * When only a new second began (estimates and schedules are reckoned from now), the kept answer
   * is sent and the next one is rendered off the request path, so no request waits for it.
   */
  private async live(repository: string, branch: string | undefined): Promise<RenderedStatus> {
    const readModels = await this.readModelsSinceNow();
    const cacheKey = `${repository}\n${branch ?? ''}`;
    const kept = this.rendered.get(cacheKey);
    if (kept && readModels !== null && kept.readModels === readModels) return this.served(cacheKey, kept);
    const { revisions, snapshotsPosition: position } = await this.reader.liveRevisions(repository, branch);
    const key = `${revisions.map((q) => `${q.stream_id}@${q.revision}`).join(',')}|${position}`;
    if (kept && kept.key === key) {
      kept.readModels = readModels;
      return this.served(cacheKey, kept);
    }
    const entry = this.rendering({ repository, readModels, key, revisions, position });
    this.keep(cacheKey, entry, kept);
    return entry.answer;
  }

  /**
   * The read models' checkpoints as read by a query that started after this call, shared by the
   * calls that arrive while one is under way (they wait for the next one, which starts once it is
   * done): as fresh as a read of one's own, so a write awaited before the request is seen, but
   * with at most one read under way however many requests come at once.
   */
  private readModelsSinceNow(): Promise<string | null> {
    if (this.checkpointRead === null) {
      const read = this.reader.readModelsPosition();
      this.checkpointRead = read;
      const done = () => {
        if (this.checkpointRead === read) this.checkpointRead = null;
      };
      read.then(done, done);
      return read;
    }
    this.nextCheckpointRead ??= this.checkpointRead
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.nextCheckpointRead = null;
        return this.readModelsSinceNow();
      });
    return this.nextCheckpointRead;
  }

  /** The kept answer; in a new second, the next rendering starts beside it (one at a time). */
  private served(cacheKey: string, kept: LiveAnswer): Promise<RenderedStatus> {
    const second = Math.floor(this.clock.now().getTime() / 1000);
    if (kept.second !== second && !kept.refreshing) {
      kept.refreshing = true;
      const next = this.rendering(kept);
      // The kept answer stays until the next one is ready; nothing waits for it.
      next.answer.then(
        () => this.keep(cacheKey, { ...next, readModels: kept.readModels }, kept),
        () => {
          kept.refreshing = false;
        },
      );
    }
    return kept.answer;
  }

  private rendering(
    from: Pick<LiveAnswer, 'repository' | 'readModels' | 'key' | 'revisions' | 'position'>,
  ): LiveAnswer {
    const now = this.clock.now().getTime();
    const answer = this.reader
      .folds(from.revisions)
      .then((queues) => this.render(from.repository, queues, now, { position: from.position, live: true }))
      .then((status) => ({ status, text: JSON.stringify(status) }));
    return { ...from, second: Math.floor(now / 1000), answer, refreshing: false };
  }

  /** Keeps `entry` unless another answer replaced `replaced` meanwhile; a failed one is not kept. */
  private keep(cacheKey: string, entry: LiveAnswer, replaced: LiveAnswer | undefined): void {
    if (this.rendered.get(cacheKey) !== replaced) return;
    this.rendered.set(cacheKey, entry);
    entry.answer.catch(() => {
      if (this.rendered.get(cacheKey) === entry) this.rendered.delete(cacheKey);
    });
  }

  private async render(
    repository: string,
    queues: QueueFold[],
    now: number,
    options: { position?: string; live: boolean },
  ): Promise<MergeQueueStatusJson> {
    const rendered = (await this.contexts(repository, queues, now, options)).map(queueStatusJson);
    if (rendered.length === 0) return EMPTY_STATUS;
    // Several branches without ?branch=: one answer holding every queue's batches.
    return rendered.reduce((all, one) => ({
      batches: [...all.batches, ...one.batches],
      waiting_pull_requests: [...all.waiting_pull_requests, ...one.waiting_pull_requests],
      mode: all.mode,
      scope_queues: { ...all.scope_queues, ...one.scope_queues },
      pause: all.pause ?? one.pause,
    }));
  }

  private async find(
    repository: string,
    pullRequest: number,
    at: Date | null,
  ): Promise<{ queue: QueueFold; entry: QueueEntry }> {
    for (const queue of await this.queues(repository, at)) {
      const entry = queue.fold.queue.pullRequests[pullRequest];
      if (entry) return { queue, entry };
    }
    throw new PullRequestNotQueuedError(`Pull request #${pullRequest} is in no merge queue`);
  }

  async pullRequest(
    repository: string,
    pullRequest: number,
    at: Date | null,
  ): Promise<PullRequestDetailJson> {
    const { queue, entry } = await this.find(repository, pullRequest, at);
    const now = at?.getTime() ?? this.clock.now().getTime();
    const [ctx] = await this.contexts(repository, [queue], now, { live: at === null });
    return pullRequestDetailJson(ctx!, entry);
  }

  /** Legacy GET queues: every queue with its pull requests in position order. */
  async legacyQueues(repository: string) {
    const queues = await this.reader.live(repository);
    const contexts = await this.contexts(repository, queues, this.clock.now().getTime(), { live: true });
    return queues
      .map((queue, index) => {
        const entries = Object.values(queue.fold.queue.pullRequests);
        const rows = entries.map((entry) => pullRequestQueuedJson(contexts[index]!, entry));
        return {
          branch: { name: queue.baseRef },
          pull_requests: rows.sort((a, b) => a.position - b.position),
        };
      })
      .filter((queue) => queue.pull_requests.length > 0);
  }

  /**
   * The queue stream a pull request is queued on, as it is now (not the read model): a dry run must
   * see what the dequeue will, and the dequeue decides on it (RequestDequeueHandler).
   */
  async queueOf(repository: string, pullRequest: number) {
    const { queue } = await this.find(repository, pullRequest, null);
    const streamId = mergeQueueStreamId(repository, queue.baseRef);
    const { state } = await loadStreamState(this.store, streamId, snapshottingMergeQueueDecider);
    if (!state.pullRequests[pullRequest])
      throw new PullRequestNotQueuedError(`Pull request #${pullRequest} is in no merge queue`);
    return { streamId, state, baseRef: queue.baseRef };
  }

  async dequeueImpact(repository: string, pullRequest: number): Promise<DequeueImpact> {
    const { state, baseRef } = await this.queueOf(repository, pullRequest);
    return dryRunDequeue(state, apiDequeue(repository, baseRef, pullRequest, this.clock.now().getTime()));
  }
}
