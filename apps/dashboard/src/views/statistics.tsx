import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, repoPath } from '../api';
import { abortCodeInWords } from '../queue-view-model';
import { location, navigate } from '../router';
import { queueHref, statisticsHref } from '../routes';
import {
  batchOutcomeRows,
  durationInWords,
  mergedSeries,
  runsPerMergeInWords,
  STATISTICS_WINDOWS,
  statisticsQuery,
  windowOf,
  type QueueStatisticsJson,
  type StatisticsWindowKey,
} from '../statistics-view-model';
import { Histogram } from './histogram';
import { Problem } from './problem';

/**
 * One branch's queue statistics over a window chosen from a few presets: merges per hour, time to
 * merge, CI runs per merge, why pull requests left, and what became of the batches.
 */
export function StatisticsView({ repository, branch }: { repository: string; branch: string }) {
  // The window is part of the address (`?window=7d`), so a chosen view can be shared.
  const windowKey = useSignal<StatisticsWindowKey>(
    windowOf(new URLSearchParams(location.value.split('?')[1] ?? '').get('window')).key,
  );
  const statistics = useSignal<QueueStatisticsJson | null>(null);
  const problem = useSignal<unknown>(null);

  const load = async () => {
    const query = statisticsQuery(branch, windowOf(windowKey.value).hours, Date.now());
    try {
      statistics.value = await api<QueueStatisticsJson>(
        'GET',
        `${repoPath(repository)}/merge-queue/statistics?${query}`,
      );
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };
  useEffect(() => {
    void load();
  }, [repository, branch, windowKey.value]);

  const shown = statistics.value;
  return (
    <section aria-labelledby="statistics-title">
      <h1 id="statistics-title">
        Statistics of {repository} <span class="muted">→</span> {branch}
      </h1>
      <p>
        <a href={queueHref(repository, branch)}>Back to the queue</a>
      </p>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Window
          <select
            name="window"
            value={windowKey.value}
            onChange={(event) => {
              windowKey.value = windowOf((event.currentTarget as HTMLSelectElement).value).key;
              navigate(`${statisticsHref(repository, branch)}?window=${windowKey.value}`, true);
            }}
          >
            {STATISTICS_WINDOWS.map((window) => (
              <option key={window.key} value={window.key}>
                {window.label}
              </option>
            ))}
          </select>
        </label>
      </form>
      {problem.value !== null && <Problem error={problem.value} />}
      {shown && (
        <div aria-live="polite">
          <dl class="figures">
            <div>
              <dt>Merged</dt>
              <dd data-testid="statistics-merged">{shown.merged}</dd>
            </div>
            <div>
              <dt>Time to merge, median</dt>
              <dd data-testid="statistics-p50">{durationInWords(shown.time_to_merge_seconds.p50)}</dd>
            </div>
            <div>
              <dt>Time to merge, 95th percentile</dt>
              <dd data-testid="statistics-p95">{durationInWords(shown.time_to_merge_seconds.p95)}</dd>
            </div>
            <div>
              <dt>CI runs per merged pull request</dt>
              <dd data-testid="statistics-runs-per-merge">
                {runsPerMergeInWords(shown.ci_runs_per_merged_pull_request)}{' '}
                <span class="muted">({shown.ci_runs} runs)</span>
              </dd>
            </div>
          </dl>
          <Histogram series={mergedSeries(shown)} label="Pull requests merged per hour" unit="merged" />

          <h2 id="dequeue-reasons-title">Why pull requests left without merging</h2>
          {shown.dequeue_reasons.length === 0 ? (
            <p>None left the queue without merging in this window.</p>
          ) : (
            <table aria-labelledby="dequeue-reasons-title">
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Code</th>
                  <th scope="col">Pull requests</th>
                </tr>
              </thead>
              <tbody>
                {shown.dequeue_reasons.map((row) => (
                  <tr key={row.reason} data-testid="dequeue-reason">
                    <td>{abortCodeInWords(row.reason)}</td>
                    <td>
                      <code>{row.reason}</code>
                    </td>
                    <td>{row.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}

          <h2 id="batch-outcomes-title">Batch outcomes</h2>
          <table aria-labelledby="batch-outcomes-title">
            <thead>
              <tr>
                <th scope="col">Outcome</th>
                <th scope="col">Batches</th>
              </tr>
            </thead>
            <tbody>
              {batchOutcomeRows(shown).map((row) => (
                <tr key={row.outcome} data-testid="batch-outcome">
                  <td>{row.words}</td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
