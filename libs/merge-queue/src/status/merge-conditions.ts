import type { PullRequestSnapshot } from '@switchyard/code-host';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import {
  evaluateConditions,
  validateConfiguration,
  type ConditionEvaluation,
  type QueueRuleConfiguration,
} from '@switchyard/config';
import type { RepositoryConfigurationSource } from '@switchyard/config/application/repository-configuration-source';
import type { Clock } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import type { Batch } from '../domain/state';

/**
 * The queue rule's merge conditions judged for a batch (queue-semantics §2.4, as the engine judges
 * them): every pull request of the batch with the check pull request's checks standing in for its
 * own. Null when the rule has no merge conditions of its own.
 */
export function mergeConditionsEvaluation(
  rule: QueueRuleConfiguration | undefined,
  checkPullRequest: PullRequestSnapshot,
  batchPullRequests: readonly PullRequestSnapshot[],
  now: Date,
): ConditionEvaluation | null {
  const merge = rule?.mergeConditions;
  if (merge === undefined || merge.source === true || merge.source.length === 0) return null;
  const judged = batchPullRequests.length > 0 ? batchPullRequests : [checkPullRequest];
  return evaluateConditions(
    merge.tree,
    judged.map((pullRequest) => ({ pullRequest: { ...pullRequest, checks: checkPullRequest.checks }, now })),
  );
}

/** How long a repository's queue rules are reused before the configuration file is read again. */
export const QUEUE_RULES_REUSED_MS = 30_000;

/**
 * Reads what the evaluation needs: the queue rules in force (the configuration file on the default
 * branch, through the code host, reused for QUEUE_RULES_REUSED_MS) and the pull requests' snapshots.
 */
export class MergeConditionsReader {
  private readonly rules = new Map<string, { readAt: number; rules: QueueRuleConfiguration[] }>();
  private readonly snapshots: PullRequestSnapshots;

  constructor(
    private readonly configuration: RepositoryConfigurationSource,
    sql: SqlQueryable,
    private readonly clock: Clock,
  ) {
    this.snapshots = new PullRequestSnapshots(sql);
  }

  async evaluate(repository: string, batch: Batch, now: Date): Promise<ConditionEvaluation | null> {
    if (batch.checkPullRequest === null) return null;
    const [rules, checkPullRequest, ...own] = await Promise.all([
      this.queueRules(repository),
      this.snapshots.find(repository, batch.checkPullRequest),
      ...batch.pullRequests.map((n) => this.snapshots.find(repository, n)),
    ]);
    if (!checkPullRequest) return null;
    const rule = rules.find((r) => r.name === batch.queueName);
    const known = own.filter((snapshot): snapshot is PullRequestSnapshot => snapshot !== null);
    return mergeConditionsEvaluation(rule, checkPullRequest, known, now);
  }

  private async queueRules(repository: string): Promise<QueueRuleConfiguration[]> {
    const key = repository.toLowerCase();
    const now = this.clock.now().getTime();
    const kept = this.rules.get(key);
    if (kept && now - kept.readAt < QUEUE_RULES_REUSED_MS) return kept.rules;
    const [owner, name] = key.split('/') as [string, string];
    const file = await this.configuration.read(owner, name);
    const validation = file ? validateConfiguration(file.content) : null;
    // No file or an invalid one: no rule of it is in force, so there is nothing to evaluate.
    const rules = validation?.valid ? validation.configuration.queueRules : [];
    this.rules.set(key, { readAt: now, rules });
    return rules;
  }
}
