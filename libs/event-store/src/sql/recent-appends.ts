import { inJsonbKeyOrder } from './jsonb-key-order';

/** The JSON of one appended event, as it was sent to the store. */
export interface AppendedJson {
  data: string;
  metadata: string;
}

/** An event's data and metadata as a read of its stored row would give them. */
export interface HeldPayload {
  data: object;
  metadata: Record<string, unknown>;
}

/** Smaller payloads read back for less than the bookkeeping and the longer id list cost. */
export const MIN_HELD_BYTES = 8 * 1024;
/**
 * Enough for the uploads of the last half second or so (a reader further behind reads the rows),
 * and few enough that their parsed payloads, several times the JSON's size, stay a few tens of MB.
 */
export const MAX_HELD_EVENTS = 16;
const MAX_HELD_BYTES = 16 * 1024 * 1024;
const STORED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The large events this process appended last, kept as the JSON it sent, so that its own feed
 * readers need not have PostgreSQL send them back: the feed read names these ids and gets their
 * rows without `data` and `metadata`, which come from here instead. Every processor of the process
 * reads each upload (a few hundred kB) once more otherwise, and the server spends as much turning
 * it back into text as it spent storing it. Readers in another process hold nothing and read rows
 * as before. Parsed once, on first use, into jsonb's key order.
 */
export class RecentAppends {
  private readonly held = new Map<string, { json: AppendedJson; parsed: HeldPayload | null }>();
  private bytes = 0;

  remember(eventId: string, json: AppendedJson): void {
    const size = json.data.length + json.metadata.length;
    // Held by the id as the feed reads it back (event_id::text), whatever form the caller gave.
    const id = eventId.toLowerCase();
    if (size < MIN_HELD_BYTES || size > MAX_HELD_BYTES || !STORED_UUID.test(id)) return;
    this.held.set(id, { json, parsed: null });
    this.bytes += size;
    for (const [oldest, entry] of this.held) {
      if (this.held.size <= MAX_HELD_EVENTS && this.bytes <= MAX_HELD_BYTES) break;
      this.held.delete(oldest);
      this.bytes -= entry.json.data.length + entry.json.metadata.length;
    }
  }

  /** What is held now: a read keeps this view, so an eviction during the read takes nothing from it. */
  snapshot(): ReadonlyMap<string, () => HeldPayload> {
    const view = new Map<string, () => HeldPayload>();
    for (const [eventId, entry] of this.held) {
      view.set(eventId, () => {
        entry.parsed ??= {
          data: inJsonbKeyOrder(JSON.parse(entry.json.data) as object),
          metadata: inJsonbKeyOrder(JSON.parse(entry.json.metadata) as Record<string, unknown>),
        };
        return entry.parsed;
      });
    }
    return view;
  }
}
