import type { JsonValue } from './types';

/**
 * A decider's state folded up to a stream revision, kept so that a command on a long stream folds
 * only the events after it. Snapshots are an optimisation: whoever reads one checks it against the
 * stream (the event at its revision must be the one it folded last) and folds from the start when
 * it is missing, does not belong to the stream's history, or is of another name or version.
 */
export interface StoredSnapshot {
  streamId: string;
  /** The state's kind (one decider may share a stream with another) and the version of its shape. */
  name: string;
  version: number;
  /** Revision and id of the last event folded into the state: the history it belongs to. */
  revision: bigint;
  eventId: string;
  state: JsonValue;
}

export interface SnapshotStore {
  /** The newest snapshot of that name and version, null when there is none. */
  read(streamId: string, name: string, version: number): Promise<StoredSnapshot | null>;
  /** Stores it unless one at the same or a later revision is already there. */
  write(snapshot: StoredSnapshot): Promise<void>;
}
