import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, repoPath } from '../api';
import { location, navigate } from '../router';
import { queueHref, statisticsHref } from '../routes';
import {
  mergedSeries,
  STATISTICS_WINDOWS,
  statisticsQuery,
  windowOf,
  type QueueStatisticsJson,
  type StatisticsWindowKey,
} from '../statistics-view-model';
import { Histogram } from './histogram';
import { Problem } from './problem';
import { BatchOutcomesTable, DequeueReasonsTable, StatisticsFigures } from './statistics-tables';

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
          <StatisticsFigures statistics={shown} />
          <Histogram series={mergedSeries(shown)} label="Pull requests merged per hour" unit="merged" />

          <DequeueReasonsTable statistics={shown} />
          <BatchOutcomesTable statistics={shown} />
        </div>
      )}
    </section>
  );
}
