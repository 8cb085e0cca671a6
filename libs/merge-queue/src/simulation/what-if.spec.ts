import { policyWith } from '../testing/queue-commands';
import { parseArrivals, parseCiDuration, parseRate } from './simulate-options';
import { runWhatIf, WHAT_IF_DEFAULTS, whatIfInSlices, whatIfWorkload } from './what-if';

describe('a what-if run in slices (the HTTP endpoint)', () => {
  const policy = policyWith({ maxParallelChecks: 2 }, { batchSize: 3, batchMaxWaitTime: 30 });
  const workload = whatIfWorkload(policy, {
    arrivals: parseArrivals(WHAT_IF_DEFAULTS.arrivals),
    ci: parseCiDuration(WHAT_IF_DEFAULTS.ci),
    failureRate: parseRate('failure', WHAT_IF_DEFAULTS.failure),
    flakeRate: parseRate('flaky', WHAT_IF_DEFAULTS.flaky),
    hours: WHAT_IF_DEFAULTS.hours,
    seed: WHAT_IF_DEFAULTS.seed,
  });

  it('pauses many times over a simulated day, and ends with what the CLI reports', () => {
    const run = whatIfInSlices(policy, workload);
    let pauses = 0;
    let step = run.next();
    for (; !step.done; step = run.next()) pauses++;
    expect(pauses).toBeGreaterThan(10);
    expect(step.value).toEqual(runWhatIf(policy, workload));
    expect(step.value.merged).toBeGreaterThan(0);
  });
});
