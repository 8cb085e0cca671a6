import type { PullRequestSnapshot } from '@switchyard/code-host';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import {
  validateConfiguration,
  type ConditionEvaluation,
  type ConditionNode,
  type QueueRuleConfiguration,
} from '@switchyard/mergify-config';
import type { RepositoryConfigurationSource } from '@switchyard/mergify-config/application/repository-configuration-source';
import type { Clock } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import type { Batch } from '../domain/state';
import { evaluateMergeConditions } from '../domain/intake/checks-verdict';

/** A batch's merge conditions as judged now, and whether only a schedule holds it (§2.12). */
export interface BatchConditions {
  evaluation: ConditionEvaluation;
  waitingSchedule: boolean;
}

/**
 * The queue rule's merge conditions judged for a batch (queue-semantics §2.4, as the engine judges
 * them): every pull request of the batch with the check pull request's checks standing in for its
 * own. Null when the rule has no merge conditions of its own.
 */
export function judgeMergeConditions(
  rule: QueueRuleConfiguration | undefined,
  checkPullRequest: PullRequestSnapshot,
  batchPullRequests: readonly PullRequestSnapshot[],
  now: Date,
): BatchConditions | null {
  const evaluation = evaluateMergeConditions(rule, checkPullRequest, batchPullRequests, now);
  if (evaluation === null) return null;
  const tree = rule!.mergeConditions.tree;
  const judged = Math.max(1, batchPullRequests.length);
  const waitingSchedule =
    !evaluation.match &&
    Array.from({ length: judged }, (_, index) => index).every((index) =>
      holdsIgnoringSchedules(tree, evaluation, index),
    );
  return { evaluation, waitingSchedule };
}

/** The node's verdict for the index-th pull request with every `schedule` condition taken as met. */
function holdsIgnoringSchedules(
  node: ConditionNode,
  evaluation: ConditionEvaluation,
  index: number,
): boolean {
  if (node.kind === 'leaf') return node.family === 'schedule' || evaluation.evaluations[index]!.match;
  const children = node.children.map((child, i) =>
    holdsIgnoringSchedules(child, evaluation.subconditions[i]!, index),
  );
  if (node.kind === 'and') return children.every(Boolean);
  if (node.kind === 'or') return children.some(Boolean);
  return !children[0];
}

/** How long a repository's queue rules are reused before the configuration file is read again. */
export const QUEUE_RULES_REUSED_MS = 30_000;

/**
 * Reads what the judgement needs: the queue rules in force (the configuration file on the default
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

  /** The merge conditions of each batch checked on a pull request now, by batch id. */
  async judge(
    repository: string,
    batches: readonly Batch[],
    now: Date,
  ): Promise<ReadonlyMap<string, BatchConditions>> {
    const checked = batches.filter((batch) => batch.checkPullRequest !== null);
    const judged = new Map<string, BatchConditions>();
    if (checked.length === 0) return judged;
    const numbers = checked.flatMap((batch) => [batch.checkPullRequest!, ...batch.pullRequests]);
    const [rules, snapshots] = await Promise.all([
      this.queueRules(repository),
      this.snapshots.findMany(repository, numbers),
    ]);
    for (const batch of checked) {
      const checkPullRequest = snapshots.get(batch.checkPullRequest!);
      if (!checkPullRequest) continue;
      const own = batch.pullRequests.flatMap((n) => snapshots.get(n) ?? []);
      const rule = rules.find((r) => r.name === batch.queueName);
      const conditions = judgeMergeConditions(rule, checkPullRequest, own, now);
      if (conditions) judged.set(batch.id, conditions);
    }
    return judged;
  }

  private async queueRules(repository: string): Promise<QueueRuleConfiguration[]> {
    const key = repository.toLowerCase();
    const now = this.clock.now().getTime();
    const kept = this.rules.get(key);
    if (kept && now - kept.readAt < QUEUE_RULES_REUSED_MS) return kept.rules;
    const [owner, name] = key.split('/') as [string, string];
    const file = await this.configuration.read(owner, name);
    const validation = file ? validateConfiguration(file.content, new Date(now)) : null;
    // No file or an invalid one: no rule of it is in force, so there is nothing to judge.
    const rules = validation?.valid ? validation.configuration.queueRules : [];
    this.rules.set(key, { readAt: now, rules });
    return rules;
  }
}
