import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, ApiError, repoPath } from '../api';
import type { DequeueImpactJson, LogEventJson, PullRequestDetailJson } from '../api-types';
import { BISECTION_EVENT_TYPES, bisectionTreeOf, type BisectionTree } from '../bisection-view-model';
import { dequeueReasonOf, timelineOf } from '../queue-view-model';
import { BisectionTreeView } from './bisection';
import { Problem } from './problem';
import { DequeueReasonBanner, QueuePlace, Timeline } from './pull-request-story';

/** How far back the story reads the activity log. */
const STORY_DAYS = 30;

/**
 * A pull request's story: its timeline from the activity log, the reason in plain words when it
 * left, its merge conditions while it is queued, and the dequeue button behind a preview of what
 * dequeuing would interrupt.
 */
export function PullRequestView({ repository, number }: { repository: string; number: number }) {
  const events = useSignal<LogEventJson[] | null>(null);
  const detail = useSignal<PullRequestDetailJson | null>(null);
  const impact = useSignal<DequeueImpactJson | null>(null);
  const problem = useSignal<unknown>(null);
  const notice = useSignal<string | null>(null);
  const bisection = useSignal<BisectionTree | null>(null);
  const base = repoPath(repository);

  /** The batch records of every pull request of the latest bisection this one was in. */
  const loadBisection = async (own: LogEventJson[], from: string) => {
    const start = own.filter((event) => event.type === 'action.queue.batch_bisection_start').at(-1);
    const batch = start?.metadata['original_batch_pr_numbers'];
    if (!Array.isArray(batch)) return null;
    const query = new URLSearchParams({ per_page: '100', received_from: from });
    for (const pull of batch) query.append('pull_request', String(pull));
    for (const type of BISECTION_EVENT_TYPES) query.append('event_type', type);
    const { events: records } = await api<{ events: LogEventJson[] }>('GET', `${base}/logs?${query}`);
    return bisectionTreeOf(records);
  };

  const load = async () => {
    const from = new Date(Date.now() - STORY_DAYS * 86_400_000).toISOString();
    try {
      const [log, queued] = await Promise.all([
        api<{ events: LogEventJson[] }>(
          'GET',
          `${base}/logs?pull_request=${number}&per_page=100&received_from=${encodeURIComponent(from)}`,
        ),
        api<PullRequestDetailJson>('GET', `${base}/merge-queue/pull/${number}`).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }),
      ]);
      events.value = log.events;
      detail.value = queued;
      bisection.value = await loadBisection(log.events, from);
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };
  useEffect(() => {
    void load();
  }, [repository, number]);

  const preview = async () => {
    try {
      impact.value = await api<DequeueImpactJson>('GET', `${base}/merge-queue/pull/${number}/dequeue-impact`);
    } catch (error) {
      problem.value = error;
    }
  };
  const dequeue = async () => {
    try {
      await api('POST', `${base}/merge-queue/pull/${number}/dequeue`);
      impact.value = null;
      notice.value = `#${number} was asked to leave the queue.`;
      await load();
    } catch (error) {
      problem.value = error;
    }
  };

  const steps = events.value ? timelineOf(events.value) : [];
  const reason = events.value ? dequeueReasonOf(events.value) : null;
  const now = Date.now();
  const queued = detail.value;

  return (
    <section aria-labelledby="pull-title">
      <h1 id="pull-title">
        {repository} #{number}
      </h1>
      {problem.value !== null && <Problem error={problem.value} />}
      {notice.value && <p role="status">{notice.value}</p>}
      <DequeueReasonBanner reason={reason} />

      {queued && (
        <>
          <QueuePlace queued={queued} now={now} />
          <h2>Dequeue</h2>
          {impact.value === null ? (
            <button type="button" onClick={preview}>
              Preview dequeue
            </button>
          ) : (
            <div class="impact" role="group" aria-label="Dequeue impact">
              <p>
                Dequeuing #{number} interrupts {impact.value.interrupted_batches} running batch(es), rechecks{' '}
                {impact.value.rechecked_pull_requests} other pull request(s) and also removes{' '}
                {impact.value.cascaded_pull_requests} stacked on it.
              </p>
              <button type="button" class="danger" onClick={dequeue}>
                Dequeue #{number}
              </button>{' '}
              <button type="button" onClick={() => (impact.value = null)}>
                Cancel
              </button>
            </div>
          )}
        </>
      )}

      {bisection.value && (
        <>
          <h2>Bisection</h2>
          <BisectionTreeView repository={repository} tree={bisection.value} />
        </>
      )}

      <h2>Timeline</h2>
      {events.value === null && problem.value === null && <p aria-live="polite">Loading…</p>}
      {events.value?.length === 0 && (
        <p>
          The activity log has nothing about #{number} in the last {STORY_DAYS} days.
        </p>
      )}
      <Timeline steps={steps} />
    </section>
  );
}
