import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { api, ApiError, repoPath } from '../api';
import type { QueueStatusJson, ScheduledFreezeJson } from '../api-types';
import { relativeTime, trainOf, waitingRowsOf } from '../queue-view-model';
import { logHref, pullHref, statisticsHref } from '../routes';
import { Problem } from './problem';

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

      {current?.pause?.paused && (
        <p class="banner banner-paused" role="status">
          Paused
          {current.pause.paused_at
            ? ` since ${new Date(current.pause.paused_at).toLocaleString()}`
            : ''}: {current.pause.reason ?? 'no reason given'}
        </p>
      )}
      {live &&
        ongoing.map((freeze) => (
          <p class="banner banner-frozen" role="status" key={freeze.id}>
            Frozen: {freeze.reason} (from {freeze.start}
            {freeze.end ? ` to ${freeze.end}` : ''}, {freeze.timezone})
          </p>
        ))}

      {current && (
        <>
          <h2>Batches ({train.length})</h2>
          {train.length === 0 ? (
            <p>No batch is running.</p>
          ) : (
            <ol class="train" aria-label="Batches, first to merge first">
              {train.map((car) => (
                <li class={`car car-${car.code}`} key={car.id} data-testid="batch">
                  <h3>{car.name}</h3>
                  <p class="car-state">{car.state}</p>
                  {car.progress !== null && (
                    <progress max={1} value={car.progress} aria-label={car.checks}>
                      {car.checks}
                    </progress>
                  )}
                  <p class="muted">{car.checks}</p>
                  {car.draft !== null && <p>Checks run on #{car.draft}</p>}
                  <ul>
                    {car.pullRequests.map((pull) => (
                      <li key={pull.number}>
                        <a href={pullHref(repository, pull.number)}>#{pull.number}</a> {pull.title}
                      </li>
                    ))}
                  </ul>
                  {car.eta && <p class="muted">Merges {relativeTime(car.eta, now)}</p>}
                </li>
              ))}
            </ol>
          )}

          <h2>Waiting ({waiting.length})</h2>
          {waiting.length === 0 ? (
            <p>No pull request is waiting.</p>
          ) : (
            <table class="waiting">
              <caption class="visually-hidden">Waiting pull requests, in queue order</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Pull request</th>
                  <th scope="col">Author</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Estimated merge</th>
                </tr>
              </thead>
              <tbody>
                {waiting.map((row) => (
                  <tr key={row.number} data-testid="waiting">
                    <td>{row.position}</td>
                    <td>
                      <a href={pullHref(repository, row.number)}>#{row.number}</a> {row.title}
                      {row.frozen && <span class="tag">frozen</span>}
                      {row.dequeueRequested && <span class="tag">leaving</span>}
                    </td>
                    <td>{row.author}</td>
                    <td>{row.priority}</td>
                    <td>{row.scopes}</td>
                    <td>{row.eta ? relativeTime(row.eta, now) : 'unknown'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
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
