import { validateConfiguration } from '@switchyard/mergify-config';
import { dump } from 'js-yaml';
import type { SeededRandom } from './seeded-random';

export type MergeMethod = 'merge' | 'squash' | 'rebase' | 'merge-batch' | 'fast-forward';

export interface QueuePlan {
  readonly name: string;
  /** A fixed size, or a `{min, max}` range sized by the waiting pull requests. */
  readonly batchSize: number | { readonly min: number; readonly max: number };
  readonly batchMaxWaitSeconds: number;
  readonly maxChecksRetries: number;
  readonly mergeMethod: MergeMethod;
  readonly allowInplaceChecks: boolean;
  /** Routes pull requests: a queue action without a name takes the first queue whose conditions hold. */
  readonly queueConditions: readonly string[];
}

/** What a generated `.mergify.yml` says, kept beside its text so the oracle can reason about it. */
export interface ConfigurationPlan {
  /** In file order: the first queue is the most urgent. */
  readonly queues: readonly QueuePlan[];
  readonly maxParallelChecks: number;
  readonly skipIntermediateResults: boolean;
  readonly mode: 'serial' | 'parallel';
  /** `web/` and `api/` as file scopes. */
  readonly scopes: boolean;
  /** `checks_timeout` of every queue (null: the default, no timeout the soak relies on). */
  readonly checksTimeoutSeconds: number | null;
  /** The conditions of the rule that queues on the `ready` label. */
  readonly readyConditions: readonly string[];
  /** An `urgent` queue fed by the `hotfix` label, with a priority rule for it. */
  readonly hotfix: boolean;
}

export const URGENT_QUEUE = 'urgent';
export const DEFAULT_QUEUE = 'default';

/** The smallest `checks_timeout` the validator accepts. */
const CHECKS_TIMEOUT_SECONDS = 60;

/**
 * Draws a configuration from the part of Mergify's configuration space Switchyard implements:
 * label- and condition-driven queue actions, one or two queues, fixed or ranged batches, wait times,
 * parallel checks, retries, merge methods, scopes, skipped intermediate results, in-place checks.
 */
export function generateConfiguration(
  random: SeededRandom,
  options: { stuckChecks: boolean; fastForward: boolean },
): ConfigurationPlan {
  const mode = random.weighted([
    ['serial', 4],
    ['parallel', 1],
  ] as const);
  const scopes = mode === 'parallel' || random.chance(0.4);
  const inPlace = random.chance(0.2);
  const maxParallelChecks = inPlace ? 1 : random.int(1, 3);
  const hotfix = random.chance(0.4);
  const queue = (name: string, queueConditions: string[]): QueuePlan => {
    const batchSize = inPlace
      ? 1
      : random.weighted<QueuePlan['batchSize']>([
          [1, 2],
          [random.int(2, 4), 3],
          [{ min: 1, max: random.int(2, 3) }, 1],
        ]);
    const maxBatch = typeof batchSize === 'number' ? batchSize : batchSize.max;
    const mergeMethods: Array<readonly [MergeMethod, number]> = [
      ['merge', 4],
      ['squash', 2],
      ['rebase', 2],
    ];
    if (maxBatch > 1) mergeMethods.push(['merge-batch', 1]);
    if (mode === 'serial' && options.fastForward) mergeMethods.push(['fast-forward', 1]);
    return {
      name,
      batchSize,
      batchMaxWaitSeconds: maxBatch > 1 ? random.int(0, 3) : 0,
      maxChecksRetries: inPlace
        ? 0
        : random.weighted([
            [0, 3],
            [1, 1],
          ] as const),
      mergeMethod: random.weighted(mergeMethods),
      allowInplaceChecks: inPlace || random.chance(0.7),
      queueConditions,
    };
  };
  const queues = hotfix
    ? [queue(URGENT_QUEUE, ['label=hotfix']), queue(DEFAULT_QUEUE, [])]
    : [queue(DEFAULT_QUEUE, [])];
  const readyConditions = ['label=ready'];
  if (random.chance(0.5)) readyConditions.push('-label=wip');
  if (random.chance(0.3)) readyConditions.push('base=main');
  return {
    queues,
    maxParallelChecks,
    skipIntermediateResults: random.chance(0.3),
    mode,
    scopes,
    checksTimeoutSeconds: options.stuckChecks && random.chance(0.3) ? CHECKS_TIMEOUT_SECONDS : null,
    readyConditions,
    hotfix,
  };
}

/** The `.mergify.yml` text of a plan. */
export function configurationText(plan: ConfigurationPlan): string {
  const pullRequestRules: unknown[] = [
    { name: 'queue what is ready', conditions: [...plan.readyConditions], actions: { queue: null } },
  ];
  if (plan.hotfix)
    pullRequestRules.push({
      name: 'hotfixes jump the line',
      conditions: ['label=hotfix'],
      actions: { queue: { name: URGENT_QUEUE } },
    });
  const document: Record<string, unknown> = {
    queue_rules: plan.queues.map((queue) => ({
      name: queue.name,
      ...(queue.queueConditions.length > 0 ? { queue_conditions: [...queue.queueConditions] } : {}),
      batch_size: queue.batchSize,
      ...(queue.batchMaxWaitSeconds > 0 ? { batch_max_wait_time: `${queue.batchMaxWaitSeconds} s` } : {}),
      max_checks_retries: queue.maxChecksRetries,
      merge_method: queue.mergeMethod,
      allow_inplace_checks: queue.allowInplaceChecks,
      ...(plan.checksTimeoutSeconds !== null ? { checks_timeout: `${plan.checksTimeoutSeconds} s` } : {}),
    })),
    merge_queue: {
      mode: plan.mode,
      max_parallel_checks: plan.maxParallelChecks,
      skip_intermediate_results: plan.skipIntermediateResults,
    },
    pull_request_rules: pullRequestRules,
  };
  if (plan.hotfix)
    document.priority_rules = [{ name: 'hotfix first', conditions: ['label=hotfix'], priority: 'high' }];
  if (plan.scopes)
    document.scopes = {
      source: { files: { web: { include: ['web/**'] }, api: { include: ['api/**'] } } },
    };
  return dump(document, { lineWidth: 120 });
}

/**
 * The text of a plan, checked with the project's validator: the generator must stay inside the
 * space Switchyard accepts, so a refusal is a bug of the generator and stops the run.
 */
export function validConfigurationText(plan: ConfigurationPlan): string {
  const text = configurationText(plan);
  const verdict = validateConfiguration(text, new Date());
  if (!verdict.valid)
    throw new Error(
      `the generated configuration is invalid: ${verdict.errors.map((e) => `${e.pathText}: ${e.message}`).join('; ')}\n${text}`,
    );
  return text;
}
