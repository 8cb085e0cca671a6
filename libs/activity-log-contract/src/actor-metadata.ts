import type { Actor } from '@switchyard/kernel';

/** The verb of an actor field: `created` for `created_by` and `created_by_staff`. */
export type ActorVerb =
  'created' | 'updated' | 'deleted' | 'quarantined' | 'dequarantined' | 'enabled' | 'disabled';

export type ActorMetadata<V extends ActorVerb, A extends Actor | null> = { [K in `${V}_by`]: A } & {
  [K in `${V}_by_staff`]: false;
};

/**
 * The actor fields of a log record's metadata. Mergify's schema pairs every `<verb>_by` actor (an
 * automatic quarantine has none: null) with a required boolean `<verb>_by_staff`, true when the
 * vendor's staff acted on the customer's behalf. Nobody from a vendor acts on a self-hosted
 * install, so it is always false. Every mapping builds its actor fields here, so no record carries
 * the one without the other; only the Actor fields the spec lists are copied, whatever else a
 * stored actor might carry.
 */
export const actorMetadata = <V extends ActorVerb, A extends Actor | null>(
  verb: V,
  actor: A,
): ActorMetadata<V, A> =>
  ({
    [`${verb}_by`]: actor && { type: actor.type, id: actor.id, name: actor.name },
    [`${verb}_by_staff`]: false,
  }) as ActorMetadata<V, A>;
