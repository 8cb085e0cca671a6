import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { type RecordedEvent } from '@switchyard/event-store';
import type { Actor, Decider } from '@switchyard/kernel';
import {
  type ScheduledFreezeCommand,
  scheduledFreezeDecider,
  scheduledFreezeStreamId,
} from '../domain/freeze/scheduled-freeze';
import {
  type MergeQueuePauseCommand,
  mergeQueuePauseDecider,
  mergeQueuePauseStreamId,
} from '../domain/merge-queue-pause';

/**
 * Test helper: runs real commands through the real deciders into an in-memory store, so projection
 * and log-mapping specs read recorded events with genuine positions, never hand-made ones.
 */
export class RecordedHistory {
  private readonly store = new InMemoryEventStore();
  private readonly commands = new CommandService(this.store);

  async pause(command: MergeQueuePauseCommand): Promise<void> {
    await this.run(mergeQueuePauseStreamId(command.repository), mergeQueuePauseDecider, command);
  }

  async freeze(command: ScheduledFreezeCommand): Promise<void> {
    await this.run(scheduledFreezeStreamId(command.freezeId), scheduledFreezeDecider, command);
  }

  async all(): Promise<RecordedEvent[]> {
    return (await this.store.readAll({ after: 'start', limit: 10_000 })).events;
  }

  private async run<S, C, E extends { type: string; data: object }>(
    stream: string,
    decider: Decider<S, C, E>,
    command: C,
  ) {
    await this.commands.handle(stream, decider, command);
  }
}

export const alice: Actor = { type: 'user', id: 42, name: 'alice' };
export const releaseBot: Actor = {
  type: 'application',
  id: 'c0ffee00-0000-4000-8000-000000000001',
  name: 'release bot',
};
