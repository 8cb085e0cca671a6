import type { RecordedEvent } from './types';

/**
 * Stored events keep the schema version they were written with; upcasters lift old data to the
 * current version as events are read, so domain and projections only ever see the newest shape.
 */
export interface Upcaster {
  type: string;
  fromVersion: number;
  upcast(data: unknown): unknown;
}

export class EventSchemas {
  private readonly upcasters = new Map<string, Map<number, Upcaster>>();
  private readonly current = new Map<string, number>();

  register(upcaster: Upcaster): this {
    const byVersion = this.upcasters.get(upcaster.type) ?? new Map<number, Upcaster>();
    if (byVersion.has(upcaster.fromVersion)) {
      throw new Error(`Two upcasters for ${upcaster.type} v${upcaster.fromVersion}`);
    }
    byVersion.set(upcaster.fromVersion, upcaster);
    this.upcasters.set(upcaster.type, byVersion);
    const next = upcaster.fromVersion + 1;
    if (next > (this.current.get(upcaster.type) ?? 1)) this.current.set(upcaster.type, next);
    return this;
  }

  /** The version new events of this type are written with. */
  currentVersion(type: string): number {
    return this.current.get(type) ?? 1;
  }

  upcast(event: RecordedEvent): RecordedEvent {
    const target = this.currentVersion(event.type);
    if (event.schemaVersion >= target) return event;
    const byVersion = this.upcasters.get(event.type);
    let data: unknown = event.data;
    for (let version = event.schemaVersion; version < target; version++) {
      const step = byVersion?.get(version);
      if (!step) throw new Error(`No upcaster for ${event.type} v${version}`);
      data = step.upcast(data);
    }
    return { ...event, data: data as object, schemaVersion: target };
  }
}

export const noUpcasting = new EventSchemas();
