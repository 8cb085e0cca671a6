import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import type { RecordedEvent } from '@switchyard/event-store';
import type { Actor } from '@switchyard/kernel';
import {
  type TestQuarantineCommand,
  testQuarantineDecider,
  testQuarantineStreamId,
} from '../domain/test-quarantine';

/**
 * Test helper: real commands through the real decider into an in-memory store, so projection and
 * log-mapping specs read recorded events with genuine positions.
 */
export class RecordedQuarantines {
  private readonly store = new InMemoryEventStore();
  private readonly commands = new CommandService(this.store);

  async run(command: TestQuarantineCommand): Promise<void> {
    await this.commands.handle(testQuarantineStreamId(command.repository), testQuarantineDecider, command);
  }

  async all(): Promise<RecordedEvent[]> {
    return (await this.store.readAll({ after: 'start', limit: 10_000 })).events;
  }
}

export const alice: Actor = { type: 'user', id: 42, name: 'alice' };
