import { Inject, Injectable } from '@nestjs/common';
import type { CommandService } from '@switchyard/event-store/application';
import type { SqlExecutor } from '@switchyard/sql';
import { type Actor, type Clock, newId, notFound } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS, SQL_EXECUTOR } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import type { CalendarFreeze } from '../domain/calendar/freeze-calendar';
import type { Condition } from '../domain/conditions/condition';
import type { FreezeChanges, ScheduledFreezeCommand } from '../domain/freeze/scheduled-freeze.commands';
import { scheduledFreezeDecider } from '../domain/freeze/scheduled-freeze.decider';
import { FREEZE_NOT_FOUND_MESSAGE } from '../domain/freeze/scheduled-freeze.errors';
import type { ScheduledFreezeEvent } from '../domain/freeze/scheduled-freeze.events';
import { scheduledFreezeStreamId } from '../domain/freeze/scheduled-freeze.stream';
import {
  type ScheduledFreezeJson,
  scheduledFreezeAttributesJson,
  scheduledFreezeJson,
} from '../json/scheduled-freeze.json';
import { calendarFreezes, findFreeze, listCurrentFreezes } from '../projections/scheduled-freeze.read-model';
import { FREEZE_READ_MODELS } from './read-models';

export interface NewFreeze {
  reason: string;
  start: string | null;
  end: string | null;
  timezone: string;
  matchingConditions: Condition[];
  excludeConditions: Condition[];
}

/**
 * Scheduled freezes of a repository: commands go through the per-freeze stream, reads come from the
 * freeze read model; writes wait for the read model before answering (read-your-writes).
 */
@Injectable()
export class ScheduledFreezeService {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Ongoing and scheduled freezes, in start order. */
  list(repository: string): Promise<ScheduledFreezeJson[]> {
    return listCurrentFreezes(this.sql, repository, this.clock.now());
  }

  /** What the merge-queue engine feeds activeFreezesAt with. */
  calendar(repository: string): Promise<CalendarFreeze[]> {
    return calendarFreezes(this.sql, repository, this.clock.now());
  }

  async schedule(repository: string, freeze: NewFreeze, actor: Actor): Promise<ScheduledFreezeJson> {
    const freezeId = newId();
    const events = await this.run({
      type: 'ScheduleFreeze',
      freezeId,
      repository,
      ...freeze,
      actor,
      at: this.clock.now(),
    });
    return freezeJsonOf(events[events.length - 1]!);
  }

  async change(
    repository: string,
    freezeId: string,
    changes: FreezeChanges,
    actor: Actor,
  ): Promise<ScheduledFreezeJson> {
    const events = await this.run({
      type: 'ChangeFreeze',
      freezeId,
      repository,
      changes,
      actor,
      at: this.clock.now(),
    });
    if (events.length > 0) return freezeJsonOf(events[events.length - 1]!);
    // Nothing changed: the read model is already current.
    const current = await findFreeze(this.sql, repository, freezeId);
    if (!current) throw notFound(FREEZE_NOT_FOUND_MESSAGE);
    return current;
  }

  async cancel(
    repository: string,
    freezeId: string,
    deleteReason: string | null,
    actor: Actor,
  ): Promise<void> {
    await this.run({ type: 'CancelFreeze', freezeId, repository, deleteReason, actor, at: this.clock.now() });
  }

  private async run(command: ScheduledFreezeCommand): Promise<ScheduledFreezeEvent[]> {
    const outcome = await readYourWrite(this.freshness, FREEZE_READ_MODELS, () =>
      this.commands.handle(scheduledFreezeStreamId(command.freezeId), scheduledFreezeDecider, command),
    );
    return outcome.events;
  }
}

/** The answer to a write comes from its event, the same attributes the projection stores. */
function freezeJsonOf(event: ScheduledFreezeEvent): ScheduledFreezeJson {
  switch (event.type) {
    case 'scheduled_freeze.scheduled':
      return scheduledFreezeJson(event.data.freezeId, scheduledFreezeAttributesJson(event.data.attributes));
    case 'scheduled_freeze.changed':
      return scheduledFreezeJson(event.data.freezeId, scheduledFreezeAttributesJson(event.data.after));
    case 'scheduled_freeze.cancelled':
      throw new Error('A cancelled freeze has no attributes to answer with');
  }
}
