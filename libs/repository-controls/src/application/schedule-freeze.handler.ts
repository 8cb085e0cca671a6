import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import { type Actor, type Clock, newId } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import type { Condition } from '../domain/conditions/condition';
import { scheduledFreezeDecider, scheduledFreezeStreamId } from '../domain/freeze/scheduled-freeze';
import { type ScheduledFreezeJson, scheduledFreezeJsonOf } from '../json/scheduled-freeze.json';
import { FREEZE_READ_MODELS } from './scheduled-freeze.queries';

export interface NewFreeze {
  reason: string;
  start: string | null;
  end: string | null;
  timezone: string;
  matchingConditions: Condition[];
  excludeConditions: Condition[];
}

/** POST scheduled_freeze: a new freeze, with an id of its own. */
export class ScheduleFreezeCommand extends Command<ScheduledFreezeJson> {
  constructor(
    readonly repository: string,
    readonly freeze: NewFreeze,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Answers with the freeze as recorded, once the freeze read model includes it. */
@CommandHandler(ScheduleFreezeCommand)
export class ScheduleFreezeHandler implements ICommandHandler<ScheduleFreezeCommand, ScheduledFreezeJson> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ repository, freeze, actor }: ScheduleFreezeCommand): Promise<ScheduledFreezeJson> {
    const freezeId = newId();
    const { events } = await readYourWrite(this.freshness, FREEZE_READ_MODELS, () =>
      this.commands.handle(scheduledFreezeStreamId(freezeId), scheduledFreezeDecider, {
        type: 'ScheduleFreeze',
        freezeId,
        repository,
        ...freeze,
        actor,
        at: this.clock.now(),
      }),
    );
    return scheduledFreezeJsonOf(events[events.length - 1]!);
  }
}
