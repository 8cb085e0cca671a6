/**
 * What the simulated team does: how pull requests arrive, how long CI takes, how often a change is
 * really broken and how often a run fails for nothing.
 */
export type Arrivals =
  /** Poisson arrivals at this rate. */
  | { kind: 'poisson'; perHour: number }
  /** All at once at t = 0 (a saturated queue, for the closed-form checks). */
  | { kind: 'burst'; count: number }
  /** Exactly these, for tests. */
  | { kind: 'listed'; pullRequests: ListedArrival[] };

export interface ListedArrival {
  atMinutes: number;
  /** Fails every build that contains it. */
  broken?: boolean;
  priority?: number;
  allowCheckInterruption?: boolean;
  scopes?: string[];
  allScopes?: boolean;
  dependsOn?: number[];
  /** Sandbox CI tokens it provides and conflicts with: a tree holding both ends of one fails. */
  provides?: string[];
  conflictsWith?: string[];
}

export interface CiDuration {
  /** Median minutes. */
  minutes: number;
  /** `uniform`: ± spread as a fraction (0.2 for ±20 %); `lognormal`: σ of the log. */
  spread: number;
  shape: 'uniform' | 'lognormal';
}

export interface Workload {
  arrivals: Arrivals;
  ci: CiDuration;
  /** Chance a pull request is really broken. */
  failureRate: number;
  /** Chance a single CI run fails spuriously. */
  flakeRate: number;
  /**
   * Chance a new pull request conflicts semantically with one still queued, chosen at random (it
   * also shares one of its scopes): each passes alone, a tree holding both fails (the sandbox CI's
   * `provides`/`conflicts-with` markers). Absent: none.
   */
  semanticConflictRate?: number;
  /** Scopes: each pull request touches 1 (80 %) or 2 (20 %) of `count` scopes; null = unscoped. */
  scopes: { count: number } | null;
  /** Pull requests get a high priority with this chance (0 = all medium). */
  highPriorityShare?: number;
  /** Arrivals stop at this horizon; throughput is measured over it. */
  hours: number;
  /** Simulated time allowed after the horizon for the queue to drain (hours). */
  drainHours?: number;
  seed: number;
}
