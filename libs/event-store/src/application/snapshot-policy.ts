import type { Decider } from '@switchyard/kernel';
import type { JsonValue } from '../types';

/**
 * How a decider opts in to snapshots: a name and a version for its state's stored shape, and the
 * conversion both ways. Bump the version whenever the state or its conversion changes: snapshots of
 * another version are ignored, never converted. fromSnapshot(toSnapshot(s)) must be a state that
 * decides and evolves exactly as s does, since a snapshot must never change an outcome.
 */
export interface SnapshotPolicy<State> {
  name: string;
  version: number;
  /** A snapshot is written once at least this many events were folded since the last one (100). */
  every?: number;
  toSnapshot(state: State): JsonValue;
  fromSnapshot(snapshot: JsonValue): State;
}

export type SnapshottingDecider<State, Command, Event> = Decider<State, Command, Event> & {
  readonly snapshots?: SnapshotPolicy<State>;
};

/** A stream with hundreds of events a day gets a snapshot a few times a day; a fold stays short. */
export const DEFAULT_SNAPSHOT_EVERY = 100;
