import { abortCodeInWords } from '../queue-view-model';
import {
  batchOutcomeRows,
  durationInWords,
  runsPerMergeInWords,
  type QueueStatisticsJson,
} from '../statistics-view-model';

/** The window's headline figures: merged, time to merge (median and 95th percentile), CI runs per merge. */
export function StatisticsFigures({ statistics }: { statistics: QueueStatisticsJson }) {
  return (
    <dl class="figures">
      <div>
        <dt>Merged</dt>
        <dd data-testid="statistics-merged">{statistics.merged}</dd>
      </div>
      <div>
        <dt>Time to merge, median</dt>
        <dd data-testid="statistics-p50">{durationInWords(statistics.time_to_merge_seconds.p50)}</dd>
      </div>
      <div>
        <dt>Time to merge, 95th percentile</dt>
        <dd data-testid="statistics-p95">{durationInWords(statistics.time_to_merge_seconds.p95)}</dd>
      </div>
      <div>
        <dt>CI runs per merged pull request</dt>
        <dd data-testid="statistics-runs-per-merge">
          {runsPerMergeInWords(statistics.ci_runs_per_merged_pull_request)}{' '}
          <span class="muted">({statistics.ci_runs} runs)</span>
        </dd>
      </div>
    </dl>
  );
}

/** Why pull requests left without merging: each reason in words, its code, and how many. */
export function DequeueReasonsTable({ statistics }: { statistics: QueueStatisticsJson }) {
  return (
    <>
      <h2 id="dequeue-reasons-title">Why pull requests left without merging</h2>
      {statistics.dequeue_reasons.length === 0 ? (
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
            {statistics.dequeue_reasons.map((row) => (
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
    </>
  );
}

/** What became of the window's batches: how many passed, failed, were bisected… */
export function BatchOutcomesTable({ statistics }: { statistics: QueueStatisticsJson }) {
  return (
    <>
      <h2 id="batch-outcomes-title">Batch outcomes</h2>
      <table aria-labelledby="batch-outcomes-title">
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Batches</th>
          </tr>
        </thead>
        <tbody>
          {batchOutcomeRows(statistics).map((row) => (
            <tr key={row.outcome} data-testid="batch-outcome">
              <td>{row.words}</td>
              <td>{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
