import type { QueueStatusJson, ScheduledFreezeJson } from '../api-types';
import { relativeTime, type TrainCar, type WaitingRow } from '../queue-view-model';
import { pullHref } from '../routes';

/** Why the queue does not move: its pause, with reason and since when, and each ongoing freeze. */
export function QueueBanners({
  pause,
  freezes,
}: {
  pause: QueueStatusJson['pause'];
  freezes: readonly ScheduledFreezeJson[];
}) {
  return (
    <>
      {pause?.paused && (
        <p class="banner banner-paused" role="status">
          Paused
          {pause.paused_at ? ` since ${new Date(pause.paused_at).toLocaleString()}` : ''}:{' '}
          {pause.reason ?? 'no reason given'}
        </p>
      )}
      {freezes.map((freeze) => (
        <p class="banner banner-frozen" role="status" key={freeze.id}>
          Frozen: {freeze.reason} (from {freeze.start}
          {freeze.end ? ` to ${freeze.end}` : ''}, {freeze.timezone})
        </p>
      ))}
    </>
  );
}

/** The running batches as a train, first to merge first: each one's state, checks and pull requests. */
export function Train({ repository, train, now }: { repository: string; train: TrainCar[]; now: number }) {
  return (
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
    </>
  );
}

/** The waiting pull requests in queue order, with priority, scopes and estimated merge. */
export function WaitingList({
  repository,
  waiting,
  now,
}: {
  repository: string;
  waiting: WaitingRow[];
  now: number;
}) {
  return (
    <>
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
  );
}
