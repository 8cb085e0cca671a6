import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { waitUntilVisible, type ReadModelFreshness } from '@switchyard/projection';
import { apiDequeueRequest } from '../status/dequeue-impact';
import { queueStatusProjection } from '../status/queue-status.projection';
import { QueueStatusService } from '../status/queue-status.service';
import { snapshottingMergeQueueDecider } from './merge-queue.stream';

/** POST merge-queue/pull/{number}/dequeue: the pull request and its queued stack successors leave. */
export class RequestDequeueCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly pullRequest: number,
  ) {
    super();
  }
}

/**
 * Records the removal as asked for; the dequeue-requests reactor carries it out where the
 * processors run. Until then the pull request stays listed with `dequeue_requested: true`.
 * PullRequestNotQueuedError and QueueNotFoundError when it is in no queue.
 */
@CommandHandler(RequestDequeueCommand)
export class RequestDequeueHandler implements ICommandHandler<RequestDequeueCommand, void> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly status: QueueStatusService,
  ) {}

  async execute({ repository, pullRequest }: RequestDequeueCommand): Promise<void> {
    const { streamId, baseRef } = await this.status.queueOf(repository, pullRequest);
    const outcome = await this.commands.handle(
      streamId,
      snapshottingMergeQueueDecider,
      apiDequeueRequest(repository, baseRef, pullRequest, this.clock.now().getTime()),
    );
    // Read-your-writes: the status a client asks for next shows the request (or the removal).
    await waitUntilVisible(this.freshness, [queueStatusProjection.name], outcome.position);
  }
}
