import type { Conclusion } from './health-rules';

/** What one identity's executions on one commit came to: every retry and loop counts. */
export interface CommitOutcome {
  commitSha: string;
  passed: number;
  failed: number;
  skipped: number;
}

export const emptyCommitOutcome = (commitSha: string): CommitOutcome => ({
  commitSha,
  passed: 0,
  failed: 0,
  skipped: 0,
});

export function withConclusion(outcome: CommitOutcome, conclusion: Conclusion, count = 1): CommitOutcome {
  return { ...outcome, [conclusion]: outcome[conclusion] + count };
}

/** The same commit, pipeline and job saw a failure and a pass (a skip never makes a flake). */
export const sawFlake = (outcome: CommitOutcome): boolean => outcome.failed > 0 && outcome.passed > 0;

/** Every non-skipped execution of the commit failed: a retry that passed clears the commit. */
export const commitFailed = (outcome: CommitOutcome): boolean => outcome.failed > 0 && outcome.passed === 0;

export const ranOnCommit = (outcome: CommitOutcome): boolean => outcome.failed + outcome.passed > 0;
