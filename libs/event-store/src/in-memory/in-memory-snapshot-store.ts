import type { SnapshotStore, StoredSnapshot } from '../snapshots';

/** Kept as JSON text, like jsonb: what a reader gets back has been through JSON, as in production. */
export class InMemorySnapshotStore implements SnapshotStore {
  private readonly snapshots = new Map<string, { revision: bigint; eventId: string; state: string }>();

  async read(streamId: string, name: string, version: number): Promise<StoredSnapshot | null> {
    const stored = this.snapshots.get(key(streamId, name, version));
    if (!stored) return null;
    return { streamId, name, version, ...stored, state: JSON.parse(stored.state) };
  }

  async write(snapshot: StoredSnapshot): Promise<void> {
    const id = key(snapshot.streamId, snapshot.name, snapshot.version);
    const stored = this.snapshots.get(id);
    if (stored && stored.revision >= snapshot.revision) return;
    const { revision, eventId, state } = snapshot;
    this.snapshots.set(id, { revision, eventId, state: JSON.stringify(state) });
  }
}

const key = (streamId: string, name: string, version: number) => JSON.stringify([streamId, name, version]);
