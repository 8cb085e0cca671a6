import { randomUUID } from 'node:crypto';
import { encodeSqlPosition, type DomainEvent, type RecordedEvent } from '@switchyard/event-store';

/** Domain events as the event store would hand them to a projection, in this order. */
export class RecordedEventFeed {
  private sequence = 0;

  record(events: readonly DomainEvent[], streamId = 'test-stream'): RecordedEvent[] {
    return events.map((event) => {
      this.sequence++;
      return {
        streamId,
        revision: BigInt(this.sequence),
        position: encodeSqlPosition(BigInt(this.sequence), BigInt(this.sequence)),
        eventId: randomUUID(),
        type: event.type,
        schemaVersion: 1,
        data: event.data,
        metadata: {},
        recordedAt: new Date(0),
      };
    });
  }
}
