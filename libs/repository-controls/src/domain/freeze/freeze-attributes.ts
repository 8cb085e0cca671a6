import type { Condition } from '../conditions/condition';

/**
 * What a freeze is, as the user stated it: the naive wall-clock start/end in `timezone` and the
 * conditions exactly as received. This is what responses echo and what log events snapshot.
 */
export interface FreezeAttributes {
  reason: string;
  start: string;
  end: string | null;
  timezone: string;
  matchingConditions: Condition[];
  excludeConditions: Condition[];
}

/** The resolved instants (RFC 3339, UTC): when the freeze holds merges, end null = indefinite. */
export interface FreezeWindow {
  startAt: string;
  endAt: string | null;
}

/** Builds attributes in one fixed key order, so two equal freezes serialize identically. */
export const freezeAttributes = (attributes: FreezeAttributes): FreezeAttributes => ({
  reason: attributes.reason,
  start: attributes.start,
  end: attributes.end,
  timezone: attributes.timezone,
  matchingConditions: attributes.matchingConditions,
  excludeConditions: attributes.excludeConditions,
});

export const sameAttributes = (a: FreezeAttributes, b: FreezeAttributes): boolean =>
  JSON.stringify(freezeAttributes(a)) === JSON.stringify(freezeAttributes(b));
