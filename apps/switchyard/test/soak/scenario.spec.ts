import { validateConfiguration } from '@switchyard/mergify-config';
import { staysOf } from './queue-history';
import { expectationsOf, FULL_SCENARIOS, generateScenario, SHORT_SCENARIOS } from './scenario';

describe('the soak scenario generator', () => {
  const seeds = Array.from({ length: 300 }, (_, index) => `spec-${index}`);

  it('draws only configurations the validator accepts', () => {
    for (const seed of seeds)
      for (const options of [FULL_SCENARIOS, SHORT_SCENARIOS]) {
        const { configurationText } = generateScenario(seed, options);
        const verdict = validateConfiguration(configurationText, new Date());
        if (!verdict.valid)
          throw new Error(`${seed}: ${JSON.stringify(verdict.errors)}\n${configurationText}`);
      }
  });

  it('gives the same scenario for the same seed, and different ones for different seeds', () => {
    expect(generateScenario('replay-me')).toEqual(generateScenario('replay-me'));
    const texts = new Set(seeds.map((seed) => generateScenario(seed).configurationText));
    expect(texts.size).toBeGreaterThan(seeds.length / 2);
  });

  it('covers the space: batches, queues, wait times, retries, merge methods, scopes, in-place, every kind of change and step', () => {
    const scenarios = seeds.map((seed) => generateScenario(seed));
    const configurations = scenarios.map((s) => s.configuration);
    const queues = configurations.flatMap((c) => c.queues);
    expect(new Set(queues.map((q) => q.mergeMethod))).toEqual(
      new Set(['merge', 'squash', 'rebase', 'merge-batch', 'fast-forward']),
    );
    expect(queues.some((q) => typeof q.batchSize === 'object')).toBe(true);
    expect(queues.some((q) => typeof q.batchSize === 'number' && q.batchSize > 1)).toBe(true);
    expect(queues.some((q) => q.batchMaxWaitSeconds > 0 && q.maxChecksRetries > 0)).toBe(true);
    expect(configurations.some((c) => c.hotfix && c.scopes && c.skipIntermediateResults)).toBe(true);
    expect(configurations.some((c) => c.mode === 'parallel')).toBe(true);
    expect(
      configurations.some((c) => c.maxParallelChecks === 1 && c.queues.every((q) => q.batchSize === 1)),
    ).toBe(true);
    expect(configurations.some((c) => c.checksTimeoutSeconds !== null)).toBe(true);
    const natures = new Set(scenarios.flatMap((s) => s.pulls.map((p) => p.nature)));
    expect(natures).toEqual(new Set(['good', 'slow', 'failing', 'flaky', 'stuck', 'semantic', 'textual']));
    const steps = new Set(scenarios.flatMap((s) => s.steps.map((step) => step.kind)));
    expect(steps).toEqual(
      new Set([
        'open',
        'enqueue',
        'unwip',
        'withdraw',
        'requeue',
        'push',
        'pause',
        'unpause',
        'freeze',
        'wait',
      ]),
    );
  });

  it('expects a fixed failing change to merge, an unfixed one to be rejected, a withdrawn one either way', () => {
    const scenarios = seeds.map((seed) => generateScenario(seed));
    for (const scenario of scenarios) {
      const expectations = expectationsOf(scenario);
      scenario.pulls.forEach((pull, index) => {
        const pushes = scenario.steps.filter((s) => s.kind === 'push' && s.pull === index);
        const withdrawn = scenario.steps.some((s) => s.kind === 'withdraw' && s.pull === index);
        if (pull.nature === 'failing' && pushes.length === 0) expect(expectations[index]).toBe('rejected');
        if (pull.nature === 'failing' && pushes.length > 0) expect(expectations[index]).toBe('merged');
        if (pull.conflictGroup !== null) expect(expectations[index]).toBe('one-of-group');
        if (pull.nature === 'good' && !withdrawn) expect(expectations[index]).toBe('merged');
      });
    }
  });
});

describe('stays read from the queue stream', () => {
  const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
  const entered = (pullRequest: number, second: number, headSha = 'a') => ({
    type: 'merge_queue.pull_request_entered',
    data: { pullRequest, occurredAt: at(second), queueName: 'default', trigger: 'Rule: r', headSha },
  });
  const left = (pullRequest: number, second: number, merged: boolean) => ({
    type: 'merge_queue.pull_request_left',
    data: {
      pullRequest,
      occurredAt: at(second),
      merged,
      dequeueCode: merged ? 'PR_MERGED' : 'CHECKS_FAILED',
      reason: merged ? 'merged' : 'checks failed',
      pullRequestHeadSha: 'a',
    },
  });

  it('counts who was queued alongside, the runs each rode in and the leaves of others', () => {
    const stays = staysOf([
      entered(1, 0),
      entered(2, 1),
      {
        type: 'merge_queue.checks_started',
        data: { pullRequests: [{ number: 1 }, { number: 2 }] },
      },
      left(2, 5, false),
      left(1, 8, true),
      entered(2, 9),
    ]);
    expect(
      stays.map((s) => [s.pullRequest, s.mostAlongside, s.checksRuns, s.disruptions, s.to !== null]),
    ).toEqual([
      [1, 1, 1, 1, true],
      [2, 1, 1, 0, true],
      [2, 0, 0, 0, false],
    ]);
  });
});
