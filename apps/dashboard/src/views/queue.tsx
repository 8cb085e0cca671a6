import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { api, ApiError, repoPath } from '../api';
import type { QueueStatusJson, ScheduledFreezeJson } from '../api-types';
import { trainOf, waitingRowsOf } from '../queue-view-model';
import { logHref, statisticsHref } from '../routes';
import { Problem } from './problem';
import { QueueBanners, Train, WaitingList } from './queue-status';

/** How far back the time slider reaches, in seconds (arrow keys step by one, Page Up and Down further). */
const SLIDER_SECONDS = 24 * 3600;

/**
 * One branch's queue, live: the running batches as a train, the waiting pull requests in order,
 * the pause and freeze banners. The service pushes a server-sent event each time the status read
 * model moves and the page then reads the status API again; nothing polls. The time slider reads
 * the status API's `?at=` instead, and live updates wait until the page is back to live.
 */
export function QueueView({ repository, branch }: { repository: string; branch: string }) {
  const status = useSignal<QueueStatusJson | null>(null);
  const freezes = useSignal<ScheduledFreezeJson[]>([]);
  const problem = useSignal<unknown>(null);
  const secondsAgo = useSignal(0);
  const loadedAt = useSignal(Date.now());
  const loading = useRef<{ running: boolean; again: boolean }>({ running: false, again: false });
  const pinnedAt = useRef(0);
  const base = repoPath(repository);

  const load = async () => {
    const state = loading.current;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      do {
        state.again = false;
        const at = secondsAgo.value === 0 ? null : new Date(pinnedAt.current);
        const query = `branch=${encodeURIComponent(branch)}${at ? `&at=${encodeURIComponent(at.toISOString())}` : ''}`;
        try {
          const [answer, frozen] = await Promise.all([
            api<QueueStatusJson>('GET', `${base}/merge-queue/status?${query}`),
            api<{ scheduled_freezes: ScheduledFreezeJson[] }>('GET', `${base}/scheduled_freeze`),
          ]);
          status.value = answer;
          freezes.value = frozen.scheduled_freezes;
          problem.value = null;
        } catch (error) {
          status.value = null;
          problem.value = error;
        }
        loadedAt.value = Date.now();
      } while (state.again);
    } finally {
      state.running = false;
    }
  };

  useEffect(() => {
    void load();
    const events = new EventSource(`/ui/events/${repository}`);
    events.addEventListener('checkpoint', () => {
      if (secondsAgo.value === 0) void load();
    });
    return () => events.close();
  }, [repository, branch]);

  const live = secondsAgo.value === 0;
  const shownAt = new Date(loadedAt.value - secondsAgo.value * 1000);
  const now = Date.now();
  const ongoing = freezes.value.filter(
    (freeze) => Date.parse(freeze.start) <= now && (freeze.end === null || Date.parse(freeze.end) > now),
  );
  const current = status.value;
  const train = current ? trainOf(current) : [];
  const waiting = current ? waitingRowsOf(current) : [];

  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">
        {repository} <span class="muted">→</span> {branch}
      </h1>
      <p>
        <a href={logHref(repository)}>Activity log</a> ·{' '}
        <a href={statisticsHref(repository, branch)}>Statistics</a>
      </p>

      <div class="time">
        <label for="time-slider">Show the queue as it was</label>
        <input
          id="time-slider"
          type="range"
          min={-SLIDER_SECONDS}
          max={0}
          step={1}
          value={-secondsAgo.value}
          aria-valuetext={live ? 'live' : `${agoInWords(secondsAgo.value)} ago`}
          onChange={(event) => {
            secondsAgo.value = -Number((event.currentTarget as HTMLInputElement).value);
            // The moment is fixed when chosen: a load that starts later (one already running, a
            // slow answer) still shows that moment, not one that drifts towards now.
            pinnedAt.current = Date.now() - secondsAgo.value * 1000;
            void load();
          }}
        />
        <output for="time-slider" data-testid="time-shown">
          {live ? 'Live' : `${shownAt.toLocaleString()} (${agoInWords(secondsAgo.value)} ago)`}
        </output>
        {!live && (
          <button
            type="button"
            onClick={() => {
              secondsAgo.value = 0;
              void load();
            }}
          >
            Back to live
          </button>
        )}
      </div>

      {problem.value !== null &&
        (problem.value instanceof ApiError && problem.value.status === 404 && !live ? (
          <p role="status">The queue had no events yet at that time.</p>
        ) : (
          <Problem error={problem.value} />
        ))}

      <QueueBanners pause={current?.pause} freezes={live ? ongoing : []} />

      {current && (
        <>
          <Train repository={repository} train={train} now={now} />
          <WaitingList repository={repository} waiting={waiting} now={now} />
        </>
      )}
    </section>
  );
}

/** "2 h 5 min", "40 s": how long ago the slider points. */
function agoInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
