import {
  Command,
  CommandHandler,
  type ICommandHandler,
  type IQueryHandler,
  Query,
  QueryHandler,
} from '@nestjs/cqrs';
import type { Actor } from '@switchyard/kernel';
import type { PauseView } from '../../projections/merge-queue-pause.read-model';
import { MergeQueuePauseService } from '../merge-queue-pause.service';

/*
 * Nest's buses are plumbing here: they route a typed request from a controller to the
 * framework-free service, which does the deciding and the appending. Nothing listens to Nest's
 * EventBus; read models come from checkpointed projections.
 */

export class PauseMergeQueueCommand extends Command<PauseView> {
  constructor(
    readonly repository: string,
    readonly reason: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

export class UnpauseMergeQueueCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

export class GetMergeQueuePauseQuery extends Query<PauseView | null> {
  constructor(readonly repository: string) {
    super();
  }
}

@CommandHandler(PauseMergeQueueCommand)
export class PauseMergeQueueHandler implements ICommandHandler<PauseMergeQueueCommand, PauseView> {
  constructor(private readonly pauses: MergeQueuePauseService) {}
  execute({ repository, reason, actor }: PauseMergeQueueCommand): Promise<PauseView> {
    return this.pauses.pause(repository, reason, actor);
  }
}

@CommandHandler(UnpauseMergeQueueCommand)
export class UnpauseMergeQueueHandler implements ICommandHandler<UnpauseMergeQueueCommand, void> {
  constructor(private readonly pauses: MergeQueuePauseService) {}
  execute({ repository, actor }: UnpauseMergeQueueCommand): Promise<void> {
    return this.pauses.unpause(repository, actor);
  }
}

@QueryHandler(GetMergeQueuePauseQuery)
export class GetMergeQueuePauseHandler implements IQueryHandler<GetMergeQueuePauseQuery, PauseView | null> {
  constructor(private readonly pauses: MergeQueuePauseService) {}
  execute({ repository }: GetMergeQueuePauseQuery): Promise<PauseView | null> {
    return this.pauses.current(repository);
  }
}

export const mergeQueuePauseBusHandlers = [
  PauseMergeQueueHandler,
  UnpauseMergeQueueHandler,
  GetMergeQueuePauseHandler,
];
