import {
  batchOutcomeRows,
  durationInWords,
  mergedSeries,
  runsPerMergeInWords,
  statisticsQuery,
  windowOf,
  type QueueStatisticsJson,
} from './statistics-view-model';

const statistics: QueueStatisticsJson = {
  branch: 'main',
  since: '2026-11-20T10:30:00.000Z',
  until: '2026-11-20T12:30:00.000Z',
  merged: 3,
  merged_per_hour: [
    { hour: '2026-11-20T10:00:00.000Z', merged: 1 },
    { hour: '2026-11-20T11:00:00.000Z', merged: 0 },
    { hour: '2026-11-20T12:00:00.000Z', merged: 2 },
  ],
  time_to_merge_seconds: { p50: 600, p95: 5400 },
  ci_runs: 4,
  ci_runs_per_merged_pull_request: 4 / 3,
  dequeue_reasons: [{ reason: 'CHECKS_FAILED', count: 1 }],
  batch_outcomes: [
    { outcome: 'passed', count: 2 },
    { outcome: 'failed', count: 1 },
    { outcome: 'exploded', count: 0 },
  ],
};

describe('statistics view model', () => {
  it('asks for one branch over the last hours of the chosen window', () => {
    const now = Date.parse('2026-11-20T12:30:00Z');
    expect(new URLSearchParams(statisticsQuery('release/1.x', windowOf('7d').hours, now))).toEqual(
      new URLSearchParams({
        branch: 'release/1.x',
        since: '2026-11-13T12:30:00.000Z',
        until: '2026-11-20T12:30:00.000Z',
      }),
    );
  });

  it('takes the first window for an unknown or missing choice', () => {
    expect(windowOf('1y').key).toBe('24h');
    expect(windowOf(null).key).toBe('24h');
    expect(windowOf('30d').hours).toBe(720);
  });

  it("gives uPlot the hours in seconds and each hour's merges", () => {
    expect(mergedSeries(statistics)).toEqual([
      [1_795_168_800, 1_795_172_400, 1_795_176_000],
      [1, 0, 2],
    ]);
  });

  it('words durations by their size, and nothing merged as a dash', () => {
    expect(durationInWords(null)).toBe('—');
    expect(durationInWords(42.4)).toBe('42 s');
    expect(durationInWords(600)).toBe('10 min');
    expect(durationInWords(5400)).toBe('1.5 h');
    expect(durationInWords(3 * 86_400)).toBe('3.0 days');
    expect(runsPerMergeInWords(4 / 3)).toBe('1.33');
    expect(runsPerMergeInWords(null)).toBe('—');
  });

  it('words each batch outcome, and keeps an outcome it has no words for as its code', () => {
    expect(batchOutcomeRows(statistics)).toEqual([
      { outcome: 'passed', words: 'Checks passed', count: 2 },
      { outcome: 'failed', words: 'Checks failed', count: 1 },
      { outcome: 'exploded', words: 'exploded', count: 0 },
    ]);
  });
});
