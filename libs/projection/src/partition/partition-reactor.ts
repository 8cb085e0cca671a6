import type { RecordedEvent } from '@switchyard/event-store';
import type { Reactor } from '../processor/reactor';
import { partitionName, partitionOf } from './partitions';

/**
 * Splits a reactor into `count` reactors, each reacting only to the events whose key falls in its
 * partition, each with its own checkpoint and ownership, so that several processes share the work
 * and each key has one owner at a time. A partition continues the reactor it splits (Reactor.lineage):
 * its commands are keyed by the reactor's name, and its first start begins where the unpartitioned
 * reactor stopped (a deployment upgraded from one engine), so no history's side effects are repeated.
 * One partition is the reactor itself, under its own name.
 */
export function partitionReactor(
  reactor: Reactor,
  count: number,
  keyOf: (event: RecordedEvent) => string,
): Reactor[] {
  if (count === 1) return [reactor];
  return Array.from({ length: count }, (_, index): Reactor => {
    const name = partitionName(reactor.name, index, count);
    return {
      name,
      ...(reactor.eventTypes ? { eventTypes: reactor.eventTypes } : {}),
      ...(reactor.startsAtHead ? { startsAtHead: true } : {}),
      accepts: (event) => partitionOf(keyOf(event), count) === index,
      lineage: { name: reactor.name, succeeds: [reactor.name] },
      react: (event, context) => reactor.react(event, context),
    };
  });
}
