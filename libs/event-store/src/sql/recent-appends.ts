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

/** One held append: its JSON, parsed on first use into jsonb's key order, then kept parsed. */
export class HeldAppend {
  private parsed: HeldPayload | null = null;

  constructor(readonly json: AppendedJson) {}

  get size(): number {
    return this.json.data.length + this.json.metadata.length;
  }

  payload(): HeldPayload {
    this.parsed ??= {
      data: inJsonbKeyOrder(JSON.parse(this.json.data) as object),
      metadata: inJsonbKeyOrder(JSON.parse(this.json.metadata) as Record<string, unknown>),
    };
    return this.parsed;
  }
}

/**
 * The large events this process appended last, kept as the JSON it sent, so that its own feed
 * readers need not have PostgreSQL send them back: the feed read names these ids and gets their
 * rows without `data` and `metadata`, which come from here instead. Every processor of the process
 * reads each upload (a few hundred kB) once more otherwise, and the server spends as much turning
 * it back into text as it spent storing it. Readers in another process hold nothing and read rows
 * as before.
 */
export class RecentAppends {
  private readonly held = new Map<string, HeldAppend>();
  private bytes = 0;

  remember(eventId: string, json: AppendedJson): void {
    const append = new HeldAppend(json);
    // Held by the id as the feed reads it back (event_id::text), whatever form the caller gave.
    const id = eventId.toLowerCase();
    if (append.size < MIN_HELD_BYTES || append.size > MAX_HELD_BYTES || !STORED_UUID.test(id)) return;
    this.held.set(id, append);
    this.bytes += append.size;
    for (const [oldest, entry] of this.held) {
      if (this.held.size <= MAX_HELD_EVENTS && this.bytes <= MAX_HELD_BYTES) break;
      this.held.delete(oldest);
      this.bytes -= entry.size;
    }
  }

  /** What is held now: a read keeps this view, so an eviction during the read takes nothing from it. */
  snapshot(): ReadonlyMap<string, HeldAppend> {
    return new Map(this.held);
  }
}
