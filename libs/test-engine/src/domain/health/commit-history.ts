import { emptyCommitOutcome, type CommitOutcome, withConclusion } from './commit-outcome';
import type { Conclusion } from './health-rules';
import { healthVerdict, type HealthVerdict } from './health-verdict';

/**
 * One identity's commits in the order they were first seen, built execution by execution, so the
 * verdict "as of" any instant is the verdict over what had arrived by then (health transitions).
 */
export class CommitHistory {
  private readonly order: string[] = [];
  private readonly outcomes = new Map<string, CommitOutcome>();

  record(commitSha: string, conclusion: Conclusion): void {
    const current = this.outcomes.get(commitSha);
    if (!current) this.order.push(commitSha);
    this.outcomes.set(commitSha, withConclusion(current ?? emptyCommitOutcome(commitSha), conclusion));
  }

  get isEmpty(): boolean {
    return this.order.length === 0;
  }

  commits(): CommitOutcome[] {
    return this.order.map((sha) => this.outcomes.get(sha)!);
  }

  verdict(): HealthVerdict {
    return healthVerdict(this.commits());
  }
}
