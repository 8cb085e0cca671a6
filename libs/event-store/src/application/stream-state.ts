import type { Decider } from '@switchyard/kernel';
import type { SnapshotStore } from '../snapshots';
import type { DomainEvent, EventStore, RecordedEvent } from '../types';
import { DEFAULT_SNAPSHOT_EVERY, type SnapshotPolicy, type SnapshottingDecider } from './snapshot-policy';

export interface StreamState<State> {
  state: State;
  /** Revision of the stream's last event, -1n when the stream does not exist. */
  revision: bigint;
  /** Id of the stream's last event, null when the stream does not exist. */
  lastEventId: string | null;
  /** Revision the fold started after: the snapshot's, or -1n for a fold from the first event. */
  foldedAfter: bigint;
}

/**
 * The decider's state at the stream's current revision: its snapshot plus the events after it when
 * the store keeps snapshots and a usable one exists, the whole stream folded otherwise. A snapshot
 * is used only when the stream still holds, at the snapshot's revision, the very event the snapshot
 * folded last, and the events read after it continue it without a gap.
 */
export async function loadStreamState<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: SnapshottingDecider<State, Command, Event>,
): Promise<StreamState<State>> {
  const policy = decider.snapshots;
  if (policy && store.snapshots) {
    const fromSnapshot = await foldFromSnapshot(store, store.snapshots, streamId, decider, policy);
    if (fromSnapshot) return fromSnapshot;
  }
  const { revision, events } = await store.readStream(streamId);
  return {
    state: fold(decider, decider.initialState(), events),
    revision,
    lastEventId: events[events.length - 1]?.eventId ?? null,
    foldedAfter: -1n,
  };
}

async function foldFromSnapshot<State, Command, Event extends DomainEvent>(
  store: EventStore,
  snapshots: SnapshotStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  policy: SnapshotPolicy<State>,
): Promise<StreamState<State> | null> {
  const snapshot = await snapshots.read(streamId, policy.name, policy.version);
  if (!snapshot) return null;
  // From the snapshot's own event: it proves the snapshot belongs to this history.
  const { revision, events } = await store.readStream(streamId, { fromRevision: snapshot.revision });
  const belongs =
    events[0]?.eventId === snapshot.eventId &&
    revision === snapshot.revision + BigInt(events.length - 1) &&
    events.every((event, i) => event.revision === snapshot.revision + BigInt(i));
  if (!belongs) return null;
  let state: State;
  try {
    state = policy.fromSnapshot(snapshot.state);
  } catch {
    return null; // unreadable: the full fold answers, and the next snapshot replaces this one
  }
  return {
    state: fold(decider, state, events.slice(1)),
    revision,
    lastEventId: events[events.length - 1]!.eventId,
    foldedAfter: snapshot.revision,
  };
}

/**
 * Writes a snapshot of the loaded state when the fold behind it covered at least `every` events. A
 * failed write is ignored on purpose: the snapshot only spares later folds, and the command it
 * rides on must not fail for it.
 */
export async function snapshotIfDue<State, Command, Event>(
  store: EventStore,
  streamId: string,
  decider: SnapshottingDecider<State, Command, Event>,
  loaded: StreamState<State>,
): Promise<void> {
  const policy = decider.snapshots;
  if (!policy || !store.snapshots || loaded.lastEventId === null) return;
  if (loaded.revision - loaded.foldedAfter < BigInt(policy.every ?? DEFAULT_SNAPSHOT_EVERY)) return;
  await store.snapshots
    .write({
      streamId,
      name: policy.name,
      version: policy.version,
      revision: loaded.revision,
      eventId: loaded.lastEventId,
      state: policy.toSnapshot(loaded.state),
    })
    .catch(() => undefined);
}

const fold = <State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  initial: State,
  events: readonly RecordedEvent[],
): State =>
  events.reduce(
    (state, event) => decider.evolve(state, { type: event.type, data: event.data } as Event),
    initial,
  );
