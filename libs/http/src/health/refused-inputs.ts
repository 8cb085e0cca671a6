import type { ReadinessContributor } from './readiness';

/**
 * How many inputs from outside the /v1 API each door of this process refused since it started
 * (webhook deliveries that do not match GitHub's schema, say), shown in /readyz: a refusal is
 * answered 4xx and logged, and a count that climbs tells an operator that a sender (GitHub after
 * a schema change, a proxy) needs a look. Counting never makes the service unready.
 */
export class RefusedInputs {
  private readonly counts = new Map<string, number>();

  /** Counts one refusal at `door`; answers the door's count so far. */
  count(door: string): number {
    const next = (this.counts.get(door) ?? 0) + 1;
    this.counts.set(door, next);
    return next;
  }

  readiness(): ReadinessContributor {
    return {
      name: 'refused input',
      check: async () => Object.fromEntries(this.counts),
    };
  }
}
