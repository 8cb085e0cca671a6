import {
  Command,
  CommandHandler,
  type ICommandHandler,
  type IQueryHandler,
  Query,
  QueryHandler,
} from '@nestjs/cqrs';
import type { Actor } from '@switchyard/kernel';
import type { FreezeChanges } from '../../domain/freeze/scheduled-freeze.commands';
import type { ScheduledFreezeJson } from '../../json/scheduled-freeze.json';
import { type NewFreeze, ScheduledFreezeService } from '../scheduled-freeze.service';

/* Bus plumbing for scheduled freezes; see merge-queue-pause.bus.ts for why it is this thin. */

export class ScheduleFreezeCommand extends Command<ScheduledFreezeJson> {
  constructor(
    readonly repository: string,
    readonly freeze: NewFreeze,
    readonly actor: Actor,
  ) {
    super();
  }
}

export class ChangeFreezeCommand extends Command<ScheduledFreezeJson> {
  constructor(
    readonly repository: string,
    readonly freezeId: string,
    readonly changes: FreezeChanges,
    readonly actor: Actor,
  ) {
    super();
  }
}

export class CancelFreezeCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly freezeId: string,
    readonly deleteReason: string | null,
    readonly actor: Actor,
  ) {
    super();
  }
}

export class ListCurrentFreezesQuery extends Query<ScheduledFreezeJson[]> {
  constructor(readonly repository: string) {
    super();
  }
}

@CommandHandler(ScheduleFreezeCommand)
export class ScheduleFreezeHandler implements ICommandHandler<ScheduleFreezeCommand, ScheduledFreezeJson> {
  constructor(private readonly freezes: ScheduledFreezeService) {}
  execute({ repository, freeze, actor }: ScheduleFreezeCommand): Promise<ScheduledFreezeJson> {
    return this.freezes.schedule(repository, freeze, actor);
  }
}

@CommandHandler(ChangeFreezeCommand)
export class ChangeFreezeHandler implements ICommandHandler<ChangeFreezeCommand, ScheduledFreezeJson> {
  constructor(private readonly freezes: ScheduledFreezeService) {}
  execute({ repository, freezeId, changes, actor }: ChangeFreezeCommand): Promise<ScheduledFreezeJson> {
    return this.freezes.change(repository, freezeId, changes, actor);
  }
}

@CommandHandler(CancelFreezeCommand)
export class CancelFreezeHandler implements ICommandHandler<CancelFreezeCommand, void> {
  constructor(private readonly freezes: ScheduledFreezeService) {}
  execute({ repository, freezeId, deleteReason, actor }: CancelFreezeCommand): Promise<void> {
    return this.freezes.cancel(repository, freezeId, deleteReason, actor);
  }
}

@QueryHandler(ListCurrentFreezesQuery)
export class ListCurrentFreezesHandler implements IQueryHandler<
  ListCurrentFreezesQuery,
  ScheduledFreezeJson[]
> {
  constructor(private readonly freezes: ScheduledFreezeService) {}
  execute({ repository }: ListCurrentFreezesQuery): Promise<ScheduledFreezeJson[]> {
    return this.freezes.list(repository);
  }
}

export const scheduledFreezeBusHandlers = [
  ScheduleFreezeHandler,
  ChangeFreezeHandler,
  CancelFreezeHandler,
  ListCurrentFreezesHandler,
];
