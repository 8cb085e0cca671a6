import { render } from 'preact-render-to-string';
import type { QueueStatisticsJson } from '../statistics-view-model';
import { BatchOutcomesTable, DequeueReasonsTable, StatisticsFigures } from './statistics-tables';

/** A busy day on main: 14 merges, two pull requests dequeued for failing checks, one conflict. */
const statistics: QueueStatisticsJson = {
  branch: 'main',
  since: '2026-11-19T12:00:00.000Z',
  until: '2026-11-20T12:00:00.000Z',
  merged: 14,
  merged_per_hour: [{ hour: '2026-11-20T10:00:00.000Z', merged: 14 }],
  time_to_merge_seconds: { p50: 1260, p95: 9000 },
  ci_runs: 19,
  ci_runs_per_merged_pull_request: 19 / 14,
  dequeue_reasons: [
    { reason: 'CHECKS_FAILED', count: 2 },
    { reason: 'CONFLICT_WITH_BASE_BRANCH', count: 1 },
  ],
  batch_outcomes: [
    { outcome: 'passed', count: 9 },
    { outcome: 'covered', count: 2 },
    { outcome: 'failed', count: 1 },
    { outcome: 'bisected', count: 1 },
  ],
};

/** Each `<tr data-testid=…>`'s cells, their text only. */
const rows = (html: string, testId: string): string[][] =>
  [...html.matchAll(new RegExp(`<tr data-testid="${testId}">(.*?)</tr>`, 'g'))].map(([, row]) =>
    [...row.matchAll(/<td>(.*?)<\/td>/g)].map(([, cell]) => cell.replace(/<[^>]+>/g, '')),
  );

describe('the statistics figures', () => {
  const html = render(<StatisticsFigures statistics={statistics} />);
  const figures = [...html.matchAll(/<dt>(.*?)<\/dt><dd data-testid="([^"]+)">(.*?)<\/dd>/g)].map(
    ([, term, testId, value]) => [term, testId, value.replace(/<[^>]+>/g, '')],
  );

  it('gives the merges, the median and 95th percentile time to merge, and CI runs per merge', () => {
    expect(figures).toEqual([
      ['Merged', 'statistics-merged', '14'],
      ['Time to merge, median', 'statistics-p50', '21 min'],
      ['Time to merge, 95th percentile', 'statistics-p95', '2.5 h'],
      ['CI runs per merged pull request', 'statistics-runs-per-merge', '1.36 (19 runs)'],
    ]);
  });

  it('shows a dash where nothing merged', () => {
    const quiet = render(
      <StatisticsFigures
        statistics={{
          ...statistics,
          merged: 0,
          time_to_merge_seconds: { p50: null, p95: null },
          ci_runs: 3,
          ci_runs_per_merged_pull_request: null,
        }}
      />,
    );
    expect(quiet).toContain('<dd data-testid="statistics-p50">—</dd>');
    expect(quiet).toContain('<dd data-testid="statistics-p95">—</dd>');
    expect(quiet).toContain(
      '<dd data-testid="statistics-runs-per-merge">— <span class="muted">(3 runs)</span></dd>',
    );
  });
});

describe('the dequeue reasons table', () => {
  const html = render(<DequeueReasonsTable statistics={statistics} />);

  it('is labelled by its heading, with column headers', () => {
    expect(html).toContain(
      '<h2 id="dequeue-reasons-title">Why pull requests left without merging</h2><table aria-labelledby="dequeue-reasons-title">',
    );
    expect([...html.matchAll(/<th scope="col">(.*?)<\/th>/g)].map(([, header]) => header)).toEqual([
      'Reason',
      'Code',
      'Pull requests',
    ]);
  });

  it('words each reason, keeps its code, and counts its pull requests', () => {
    expect(rows(html, 'dequeue-reason')).toEqual([
      ['Its checks failed.', 'CHECKS_FAILED', '2'],
      ['It conflicts with its base branch.', 'CONFLICT_WITH_BASE_BRANCH', '1'],
    ]);
    expect(html).toContain('<td><code>CHECKS_FAILED</code></td>');
  });

  it('says so when none left without merging', () => {
    expect(render(<DequeueReasonsTable statistics={{ ...statistics, dequeue_reasons: [] }} />)).toBe(
      '<h2 id="dequeue-reasons-title">Why pull requests left without merging</h2>' +
        '<p>None left the queue without merging in this window.</p>',
    );
  });
});

describe('the batch outcomes table', () => {
  const html = render(<BatchOutcomesTable statistics={statistics} />);

  it('is labelled by its heading and counts the batches of each outcome, in words', () => {
    expect(html).toContain(
      '<h2 id="batch-outcomes-title">Batch outcomes</h2><table aria-labelledby="batch-outcomes-title">',
    );
    expect(rows(html, 'batch-outcome')).toEqual([
      ['Checks passed', '9'],
      ['Covered by a later passing batch', '2'],
      ['Checks failed', '1'],
      ['Split to find the failing change', '1'],
    ]);
  });
});
