import {
  configurationProblems,
  deprecatedField,
  positionOf,
  throughputFigures,
  workloadInWords,
  type QueueSimulationJson,
} from './simulator-view-model';

describe('configuration simulator page', () => {
  it("reads each 422 issue's path, line and column from its ctx", () => {
    const problems = configurationProblems({
      detail: [
        {
          type: 'mergify_config_error',
          loc: ['body', 'mergify_yml'],
          msg: 'queue_rules[0].batch_size (line 3, column 5): must be between 1 and 128, got 500',
          ctx: { path: 'queue_rules[0].batch_size', line: 3, column: 5 },
        },
        { type: 'missing', loc: ['body', 'mergify_yml'], msg: 'Field required' },
      ],
    });
    expect(problems).toEqual([
      {
        path: 'queue_rules[0].batch_size',
        line: 3,
        column: 5,
        message: 'queue_rules[0].batch_size (line 3, column 5): must be between 1 and 128, got 500',
      },
      { path: '', line: null, column: null, message: 'Field required' },
    ]);
    expect(positionOf(problems[0])).toBe('line 3, column 5');
    expect(positionOf(problems[1])).toBe('');
  });

  it('reads no problems from a detail that is not a list', () => {
    expect(configurationProblems({ detail: 'Forbidden' })).toEqual([]);
    expect(configurationProblems(undefined)).toEqual([]);
  });

  it("names a deprecation's field with list indexes in brackets", () => {
    expect(
      deprecatedField({
        message: 'm',
        deadline: '2026-07-31',
        path_to_field: ['queue_rules', '1', 'conditions'],
      }),
    ).toBe('queue_rules[1].conditions');
    expect(deprecatedField({ message: 'm', deadline: '2026-07-31', path_to_field: null })).toBeNull();
  });
});

describe('throughput estimate', () => {
  const simulation: QueueSimulationJson = {
    workload: { arrivals: '20/h', ci: '30m±20%', failure: '5%', flaky: '1%', hours: 24, seed: 1 },
    arrived: 480,
    merged: 168,
    merged_per_hour: 7,
    time_to_merge_minutes: { p50: 612.4, p95: null },
    ci_runs: 201,
    ci_runs_per_merged_pull_request: 201 / 168,
    dequeued: 20,
    still_queued: 292,
    report: [],
  };

  it('shows the figures switchyard simulate prints, unknown ones as n/a', () => {
    expect(throughputFigures(simulation)).toEqual([
      { label: 'Throughput', value: '7.00 merged per hour (168 of 480 queued)' },
      { label: 'Time to merge', value: 'p50 612 min, p95 n/a' },
      { label: 'CI runs per merged pull request', value: '1.20' },
      { label: 'Dequeued', value: '20' },
    ]);
    expect(throughputFigures({ ...simulation, ci_runs_per_merged_pull_request: null })[2]!.value).toBe('n/a');
  });

  it('words the workload simulated', () => {
    expect(workloadInWords(simulation.workload)).toBe(
      '20/h arriving, CI 30m±20%, 5% broken, 1% flaky runs, 24 h simulated',
    );
  });
});
