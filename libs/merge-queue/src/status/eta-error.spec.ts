import { defaultQueuePolicy } from '../domain/policy';
import { simulate } from '../simulation/simulate';
import { measureEtaError } from './eta-error';

describe('ETA error over simulator runs', () => {
  it('measures the estimate against the merges that followed, in CI durations', () => {
    const policy = defaultQueuePolicy();
    const run = simulate(
      { ...policy, mergeQueue: { ...policy.mergeQueue, maxParallelChecks: 3 } },
      {
        arrivals: { kind: 'poisson', perHour: 4 },
        ci: { minutes: 20, spread: 0.2, shape: 'uniform' },
        failureRate: 0.05,
        flakeRate: 0.02,
        scopes: null,
        hours: 12,
        drainHours: 4,
        seed: 11,
      },
      { keepEvents: true },
    );
    const report = measureEtaError(run.events);
    expect(report.samples).toBeGreaterThan(10);
    expect(report.medianAbsoluteErrorOverCi).not.toBeNull();
    // The goal of issue #12; a regression of the model shows here.
    expect(report.medianAbsoluteErrorOverCi!).toBeLessThanOrEqual(0.25);
  });
});
