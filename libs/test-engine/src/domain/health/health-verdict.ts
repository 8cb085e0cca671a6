import { commitFailed, type CommitOutcome, ranOnCommit, sawFlake } from './commit-outcome';
import { type FailedExecutionsImpact, HEALTH_RULES, type HealthStatus } from './health-rules';

/** Everything the read side shows about one identity's health. */
export interface HealthVerdict {
  status: HealthStatus;
  /** Failed share of the passed and failed executions in the window (skips left out). */
  failedExecutionsRatio: number;
  failedExecutionsImpact: FailedExecutionsImpact | null;
  successRatio: number;
  failureRatio: number;
  /** Share of the window's commits (those with a pass or a failure) that saw a flake. */
  flakinessRatio: number;
  /** Executions in the window, skips included. */
  executionsCount: number;
}

/**
 * The health of one identity from its default-branch commits, oldest first. Broken wins over
 * flaky: a test failing on every recent commit blocks merges whatever its past.
 */
export function healthVerdict(commits: readonly CommitOutcome[]): HealthVerdict {
  const window = commits.slice(-HEALTH_RULES.windowCommits);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let ran = 0;
  let flaky = 0;
  for (const commit of window) {
    passed += commit.passed;
    failed += commit.failed;
    skipped += commit.skipped;
    if (ranOnCommit(commit)) ran++;
    if (sawFlake(commit)) flaky++;
  }
  const status: HealthStatus = isBroken(window) ? 'broken' : flaky > 0 ? 'flaky' : 'healthy';
  const judged = passed + failed;
  const failedExecutionsRatio = judged === 0 ? 0 : failed / judged;
  return {
    status,
    failedExecutionsRatio,
    failedExecutionsImpact: status === 'healthy' ? null : impactOf(failedExecutionsRatio),
    successRatio: judged === 0 ? 0 : passed / judged,
    failureRatio: failedExecutionsRatio,
    flakinessRatio: ran === 0 ? 0 : flaky / ran,
    executionsCount: passed + failed + skipped,
  };
}

/** Recency-weighted share of failed commits among the last ones that ran (skips do not count). */
export function brokenScore(commits: readonly CommitOutcome[]): number {
  const { brokenLookbackCommits, brokenDecay } = HEALTH_RULES;
  let weight = 1;
  let total = 0;
  let failing = 0;
  let looked = 0;
  for (let index = commits.length - 1; index >= 0 && looked < brokenLookbackCommits; index--) {
    const commit = commits[index]!;
    if (!ranOnCommit(commit)) continue;
    total += weight;
    if (commitFailed(commit)) failing += weight;
    weight *= brokenDecay;
    looked++;
  }
  return total === 0 ? 0 : failing / total;
}

function isBroken(commits: readonly CommitOutcome[]): boolean {
  const recent = commits.filter(ranOnCommit).slice(-HEALTH_RULES.brokenLookbackCommits);
  const failedCommits = recent.filter(commitFailed).length;
  return (
    failedCommits >= HEALTH_RULES.brokenMinFailedCommits &&
    brokenScore(commits) >= HEALTH_RULES.brokenThreshold
  );
}

export function impactOf(failedRatio: number): FailedExecutionsImpact {
  if (failedRatio < HEALTH_RULES.impactLowBelow) return 'low';
  if (failedRatio < HEALTH_RULES.impactMediumBelow) return 'medium';
  return 'high';
}
