import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import { pullRequestScopesDecider, pullRequestScopesStreamId } from '../domain/scopes/pull-request-scopes';
import { queueStatusProjection } from './queue-status.projection';
import { QueueStatusReader } from './queue-status.reader';

/** The read model that shows a pull request's scopes: the status API's. */
const SCOPES_READ_MODELS = [queueStatusProjection.name];

export interface ReportedScopes {
  repository: string;
  pullRequest: number;
  scopes: readonly string[];
  allScopes: boolean;
}

/**
 * The scopes CI computed for a pull request (`mergify ci scopes-send`), with read-your-writes on
 * the status API, which shows them while the pull request is queued. They are recorded on the pull
 * request's scopes stream, which the queue reads when the pull request enters it, and, when the
 * status shows it queued, on that queue's stream too, as the engine does on reading the report: so
 * the status a client reads right after has them, whether or not the engine has caught up. The
 * engine's own reaction then finds them recorded and records nothing more (set_scopes is decided
 * on the queue's state).
 */
export class PullRequestScopesService {
  private readonly reader: QueueStatusReader;

  constructor(
    sql: SqlQueryable,
    store: EventStore,
    private readonly commands: CommandService,
    private readonly clock: Clock,
    private readonly freshness: ReadModelFreshness,
  ) {
    this.reader = new QueueStatusReader(sql, store);
  }

  async report(report: ReportedScopes): Promise<void> {
    const { repository, pullRequest } = report;
    await readYourWrite(this.freshness, SCOPES_READ_MODELS, async () => {
      const at = this.clock.now();
      const reported = await this.commands.handle(
        pullRequestScopesStreamId(repository, pullRequest),
        pullRequestScopesDecider,
        { repository, pullRequest, scopes: report.scopes, allScopes: report.allScopes, at: at.toISOString() },
      );
      const queue = (await this.reader.live(repository)).find((q) => q.fold.queue.pullRequests[pullRequest]);
      if (!queue) return reported;
      const applied = await this.commands.handle(
        mergeQueueStreamId(repository, queue.baseRef),
        snapshottingMergeQueueDecider,
        {
          kind: 'set_scopes',
          repository,
          baseRef: queue.baseRef,
          at: at.getTime(),
          pullRequest,
          scopes: [...report.scopes],
          allScopes: report.allScopes,
        },
      );
      return { position: applied.position ?? reported.position };
    });
  }
}
