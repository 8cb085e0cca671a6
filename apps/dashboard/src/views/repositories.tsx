import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, ApiError, repoPath } from '../api';
import type { QueueStatusJson, ScheduledFreezeJson } from '../api-types';
import { describeQueueState, queueStateOf, type QueueState } from '../queue-view-model';
import { logHref, queueHref, simulatorHref, testsHref } from '../routes';
import { Problem } from './problem';

interface BranchState {
  branch: string;
  state: QueueState;
}
interface RepositoryRow {
  repository: string;
  branches: BranchState[] | ApiError;
}

/** A freeze with a start in the past and no end, or an end ahead: the page's best reading of wall-clock times. */
const ongoing = (now: number) => (freeze: ScheduledFreezeJson) =>
  Date.parse(freeze.start) <= now && (freeze.end === null || Date.parse(freeze.end) > now);

async function branchesOf(repository: string): Promise<BranchState[]> {
  const base = repoPath(repository);
  const [{ branches }, { scheduled_freezes }] = await Promise.all([
    api<{ branches: string[] }>('GET', `${base}/merge-queue/branches`),
    api<{ scheduled_freezes: ScheduledFreezeJson[] }>('GET', `${base}/scheduled_freeze`),
  ]);
  const now = Date.now();
  return Promise.all(
    branches.map(async (branch) => {
      const status = await api<QueueStatusJson>(
        'GET',
        `${base}/merge-queue/status?branch=${encodeURIComponent(branch)}`,
      );
      return { branch, state: queueStateOf(status, scheduled_freezes, ongoing(now)) };
    }),
  );
}

/** Every repository the credential can see with a merge queue, and each queue's state at a glance. */
export function RepositoriesView() {
  const rows = useSignal<RepositoryRow[] | null>(null);
  const problem = useSignal<unknown>(null);
  useEffect(() => {
    api<{ repositories: string[] }>('GET', '/ui/repositories')
      .then(({ repositories }) =>
        Promise.all(
          repositories.map(async (repository) => ({
            repository,
            branches: await branchesOf(repository).catch((error: unknown) => {
              if (error instanceof ApiError) return error;
              throw error;
            }),
          })),
        ),
      )
      .then(
        (loaded) => (rows.value = loaded),
        (error: unknown) => (problem.value = error),
      );
  }, []);

  return (
    <section aria-labelledby="repositories-title">
      <h1 id="repositories-title">Merge queues</h1>
      {problem.value !== null && <Problem error={problem.value} />}
      {rows.value === null && problem.value === null && <p aria-live="polite">Loading…</p>}
      {rows.value?.length === 0 && <p>No repository of your accounts has a merge queue yet.</p>}
      {rows.value?.map((row) => (
        <article class="repository" key={row.repository} aria-labelledby={`repo-${row.repository}`}>
          <h2 id={`repo-${row.repository}`}>{row.repository}</h2>
          <p>
            <a href={logHref(row.repository)}>Activity log</a> · <a href={testsHref(row.repository)}>Tests</a>{' '}
            · <a href={simulatorHref(row.repository)}>Configuration simulator</a>
          </p>
          {row.branches instanceof ApiError ? (
            <Problem error={row.branches} />
          ) : (
            <table>
              <caption class="visually-hidden">Queues of {row.repository}</caption>
              <thead>
                <tr>
                  <th scope="col">Branch</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {row.branches.map(({ branch, state }) => (
                  <tr key={branch}>
                    <th scope="row">
                      <a href={queueHref(row.repository, branch)}>{branch}</a>
                    </th>
                    <td>
                      <span class={`state state-${state.kind}`}>{describeQueueState(state)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </article>
      ))}
    </section>
  );
}
