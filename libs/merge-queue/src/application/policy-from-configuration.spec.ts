import { validateConfiguration } from '@switchyard/mergify-config';
import { queuePolicyFromConfiguration } from './policy-from-configuration';

const policyOf = (text: string, options?: Parameters<typeof queuePolicyFromConfiguration>[1]) => {
  const validation = validateConfiguration(text, new Date('2026-11-28T00:00:00Z'));
  if (!validation.valid) throw new Error(JSON.stringify(validation.errors));
  return queuePolicyFromConfiguration(validation.configuration, options);
};

describe('queue policy from .mergify.yml', () => {
  it('carries every setting the planner reads', () => {
    const policy = policyOf(`
queue_rules:
  - name: default
    batch_size: 8
    batch_max_wait_time: 2 minutes
    checks_timeout: 45 minutes
    max_checks_retries: 1
    batch_max_failure_resolution_attempts: 3
    merge_method: squash
    queue_branch_prefix: mq/
    merge_conditions:
      - check-success=ci
  - name: lowrisk
    batch_size:
      min: 2
      max: 6
merge_queue:
  mode: parallel
  max_parallel_checks: 4
  skip_intermediate_results: true
  reset_on_external_merge: never
scopes:
  source:
    manual:
  capacities:
    api: 2
  default_capacity: 1
`);
    expect(policy.mergeQueue).toEqual({
      mode: 'parallel',
      maxParallelChecks: 4,
      skipIntermediateResults: true,
      resetOnExternalMerge: 'never',
      capacities: { api: 2 },
      defaultCapacity: 1,
      queuedLabel: 'queued',
      checkingLabel: null,
      dequeuedLabel: 'dequeued',
      statusComments: 'all',
    });
    expect(policy.rules[0]).toEqual({
      name: 'default',
      batchSize: 8,
      batchMaxWaitTime: 120,
      checksTimeout: 2700,
      maxChecksRetries: 1,
      batchMaxFailureResolutionAttempts: 3,
      mergeMethod: 'squash',
      allowInplaceChecks: true,
      twoStepCi: true,
      queueBranchPrefix: 'mq/',
      updateMethod: 'merge',
    });
    expect(policy.rules[1]).toMatchObject({
      name: 'lowrisk',
      batchSize: { min: 2, max: 6 },
      twoStepCi: false,
    });
  });

  it('reads checks_timeout auto and null, and falls back to the repository merge method', () => {
    const policy = policyOf(
      `
queue_rules:
  - name: a
    checks_timeout: null
  - name: b
`,
      { repositoryMergeMethod: 'rebase' },
    );
    expect(policy.rules.map((r) => [r.checksTimeout, r.mergeMethod])).toEqual([
      [null, 'rebase'],
      ['auto', 'rebase'],
    ]);
  });

  it('gives a repository without queue rules the default queue', () => {
    expect(policyOf('').rules.map((r) => r.name)).toEqual(['default']);
  });
});
