import type { PathSegment } from '../source/configuration-path';

/** When Mergify removes (or removed) a deprecated form, and where that is known from. */
export interface RemovalFacts {
  /** `YYYY-MM-DD`: the removal date a source gives, past or future; null when none was published. */
  removedOn: string | null;
  /** Whether Mergify's configuration schema (2026-08) still accepts the form. */
  stillAccepted: boolean;
  source: string;
}

/**
 * A deprecated form found in a configuration (spec DeprecationInfo): what to change, the date
 * after which Mergify rejects it, and where it is (null when not tied to one field).
 */
export interface Deprecation {
  message: string;
  /** `YYYY-MM-DD`. */
  deadline: string;
  path: readonly PathSegment[] | null;
  removal?: RemovalFacts;
}

/**
 * Mergify's verdict on a deprecated form on a given day (`YYYY-MM-DD`): removed once its removal
 * date has come, or, with no date published, when its schema no longer has it.
 */
export function isRemoved(removal: RemovalFacts | undefined, today: string): boolean {
  if (!removal) return false;
  return removal.removedOn !== null ? removal.removedOn <= today : !removal.stillAccepted;
}

/** The error a removed form gives: when it was removed, and what replaced it. */
export function removalMessage(deprecation: Deprecation): string {
  const removedOn = deprecation.removal?.removedOn;
  const when = removedOn
    ? `removed from Mergify's configuration on ${removedOn}`
    : "removed from Mergify's configuration (no removal date was published; its schema of 2026-08 no longer has it)";
  return `${when}. ${deprecation.message}`;
}
