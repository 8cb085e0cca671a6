import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, apiPage, repoPath } from '../api';
import type { LogEventJson } from '../api-types';
import { histogramSeries, logQuery, NO_FILTERS, type LogFilters } from '../log-view-model';
import { timelineOf } from '../queue-view-model';
import { pullHref } from '../routes';
import { Histogram } from './histogram';
import { Problem } from './problem';

interface AggregateJson {
  total: number;
  histogram: { start: string; end: string; count: number }[];
  by_event_type: { value: string; count: number }[];
}

const OUTCOMES = ['success', 'failure', 'pending', 'neutral'];

/** The activity log with the API's main filters, its histogram (logs/aggregate) and its pages. */
export function ActivityLogView({ repository }: { repository: string }) {
  const filters = useSignal<LogFilters>(NO_FILTERS);
  const events = useSignal<LogEventJson[]>([]);
  const next = useSignal<string | null>(null);
  const aggregate = useSignal<AggregateJson | null>(null);
  const problem = useSignal<unknown>(null);
  const base = repoPath(repository);

  const load = async () => {
    const query = logQuery(filters.value, Date.now());
    try {
      const [page, counts] = await Promise.all([
        apiPage<{ events: LogEventJson[] }>('GET', `${base}/logs?${query}&per_page=50`),
        api<AggregateJson>('GET', `${base}/logs/aggregate?${query}`),
      ]);
      events.value = page.body.events;
      next.value = page.next;
      aggregate.value = counts;
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };
  const more = async () => {
    if (!next.value) return;
    try {
      const page = await apiPage<{ events: LogEventJson[] }>('GET', next.value);
      events.value = [...events.value, ...page.body.events];
      next.value = page.next;
    } catch (error) {
      problem.value = error;
    }
  };
  useEffect(() => {
    void load();
  }, [repository]);

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    filters.value = {
      pullRequest: String(form.get('pull_request') ?? ''),
      eventType: String(form.get('event_type') ?? ''),
      outcome: String(form.get('outcome') ?? ''),
      baseRef: String(form.get('base_ref') ?? ''),
      hours: Number(form.get('hours') ?? 24),
    };
    void load();
  };
  const steps = timelineOf(events.value).reverse();

  return (
    <section aria-labelledby="log-title">
      <h1 id="log-title">Activity log of {repository}</h1>
      <form class="filters" onSubmit={submit}>
        <label>
          Pull requests <input name="pull_request" inputMode="numeric" placeholder="42, 43" />
        </label>
        <label>
          Event type <input name="event_type" placeholder="action.queue.leave" />
        </label>
        <label>
          Outcome
          <select name="outcome">
            <option value="">any</option>
            {OUTCOMES.map((outcome) => (
              <option key={outcome}>{outcome}</option>
            ))}
          </select>
        </label>
        <label>
          Base branch <input name="base_ref" />
        </label>
        <label>
          Window
          <select name="hours" value={String(filters.value.hours)}>
            <option value="1">last hour</option>
            <option value="24">last day</option>
            <option value="168">last week</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {problem.value !== null && <Problem error={problem.value} />}
      {aggregate.value && (
        <>
          <p data-testid="log-total">
            {aggregate.value.total} events;{' '}
            {aggregate.value.by_event_type
              .slice(0, 5)
              .map((row) => `${row.value} ${row.count}`)
              .join(', ')}
          </p>
          <Histogram series={histogramSeries(aggregate.value.histogram)} label="Events per interval" />
        </>
      )}
      <table>
        <caption class="visually-hidden">Events, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Pull request</th>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step, index) => {
            const event = events.value.find((candidate) => candidate.id === step.id)!;
            return (
              <tr key={`${step.id}-${index}`} data-testid="log-row">
                <td>
                  <time dateTime={step.at}>{new Date(step.at).toLocaleString()}</time>
                </td>
                <td>
                  {event.pull_request === null ? (
                    '—'
                  ) : (
                    <a href={pullHref(repository, event.pull_request)}>#{event.pull_request}</a>
                  )}
                </td>
                <td>
                  <strong>{step.title}</strong>
                  {step.detail && <span> — {step.detail}</span>}
                  <div class="muted">{event.type}</div>
                </td>
                <td class={`outcome-${step.outcome}`}>{step.outcome}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {next.value && (
        <button type="button" onClick={more}>
          Older events
        </button>
      )}
    </section>
  );
}
