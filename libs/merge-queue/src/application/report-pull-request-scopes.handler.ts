import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import {
  CLOCK,
  COMMAND_SERVICE,
  EVENT_STORE,
  READ_MODEL_FRESHNESS,
  SQL_EXECUTOR,
} from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { pullRequestScopesDecider, pullRequestScopesStreamId } from '../domain/scopes/pull-request-scopes';
import { queueStatusProjection } from '../status/queue-status.projection';
import { QueueStatusReader } from '../status/queue-status.reader';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from './merge-queue.stream';

/** The read model that shows a pull request's scopes: the status API's. */
const SCOPES_READ_MODELS = [queueStatusProjection.name];

/** PUT (or the deprecated POST) pulls/{number}/scopes: what `mergify ci scopes-send` sends. */
export class ReportPullRequestScopesCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly pullRequest: number,
    readonly scopes: readonly string[],
    readonly allScopes: boolean,
  ) {
    super();
  }
}

/**
 * The scopes CI computed for a pull request, with read-your-writes on the status API, which shows
 * them while the pull request is queued. They are recorded on the pull request's scopes stream,
 * which the queue reads when the pull request enters it, and, when the status shows it queued, on
 * that queue's stream too, as the engine does on reading the report: so the status a client reads
 * right after has them, whether or not the engine has caught up. The engine's own reaction then
 * finds them recorded and records nothing more (set_scopes is decided on the queue's state).
 */
@CommandHandler(ReportPullRequestScopesCommand)
export class ReportPullRequestScopesHandler implements ICommandHandler<ReportPullRequestScopesCommand, void> {
  private readonly reader: QueueStatusReader;

  constructor(
    @Inject(SQL_EXECUTOR) sql: SqlQueryable,
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
  ) {
    this.reader = new QueueStatusReader(sql, store);
  }

  async execute(report: ReportPullRequestScopesCommand): Promise<void> {
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
