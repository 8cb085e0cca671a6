import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api } from '../api';
import { testsHref } from '../routes';
import {
  ciPath,
  describeTransition,
  percent,
  quarantineBody,
  quarantineScope,
  type HealthStatus,
  type HealthTransitionJson,
} from '../test-health-view-model';
import { Problem } from './problem';

interface TestDetailsJson {
  test_name: string;
  health_status: string;
  failure_ratio: number;
  flakiness_ratio: number;
  last_failure_at: string | null;
  last_success_at: string | null;
  test_filepath: string | null;
}
interface TestFailureJson {
  id: string;
  exception_type: string;
  exception_message: string;
  failure_count: number;
  first_failure_at: string;
  last_failure_at: string;
}
interface QuarantinedTestJson {
  id: string;
  reason: string;
  branch_name: string | null;
  pipeline_name: string | null;
  job_name: string | null;
  created_at: string;
  source?: string;
  unquarantine_when_healthy: boolean;
}

const when = (at: string | null) => (at === null ? '—' : new Date(at).toLocaleString());

/** One test: its health over 90 days, its recent failures, and its quarantines with add and remove. */
export function TestView({ repository, testId }: { repository: string; testId: string }) {
  const details = useSignal<TestDetailsJson | null>(null);
  const transitions = useSignal<HealthTransitionJson[]>([]);
  const failures = useSignal<TestFailureJson[]>([]);
  const quarantines = useSignal<QuarantinedTestJson[]>([]);
  const problem = useSignal<unknown>(null);
  const notice = useSignal<string | null>(null);
  const base = ciPath(repository);
  const test = `${base}/tests/${encodeURIComponent(testId)}`;

  const loadQuarantines = async () => {
    const { quarantined_tests } = await api<{ quarantined_tests: QuarantinedTestJson[] }>(
      'GET',
      `${base}/quarantines?test_id=${encodeURIComponent(testId)}`,
    );
    quarantines.value = quarantined_tests;
  };
  const load = async () => {
    try {
      const [read, health, failed] = await Promise.all([
        api<TestDetailsJson>('GET', test),
        api<{ transitions: HealthTransitionJson[] }>('GET', `${test}/health-transitions?window=90d`),
        api<{ failures: TestFailureJson[] }>('GET', `${test}/failures`),
        loadQuarantines(),
      ]);
      details.value = read;
      transitions.value = health.transitions;
      failures.value = failed.failures;
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };
  useEffect(() => {
    void load();
  }, [repository, testId]);

  const add = async (event: Event) => {
    event.preventDefault();
    if (!details.value) return;
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    try {
      await api(
        'POST',
        `${base}/quarantines`,
        quarantineBody(
          details.value.test_name,
          String(form.get('reason') ?? ''),
          String(form.get('branch') ?? ''),
          form.get('unquarantine_when_healthy') === 'on',
        ),
      );
      formElement.reset();
      await loadQuarantines();
      notice.value = 'Quarantined.';
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };
  const remove = async (id: string) => {
    try {
      await api('DELETE', `${base}/quarantines/${encodeURIComponent(id)}`);
      await loadQuarantines();
      notice.value = 'Quarantine removed.';
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };

  const read = details.value;
  return (
    <section aria-labelledby="test-title">
      <p>
        <a href={testsHref(repository)}>All tests of {repository}</a>
      </p>
      <h1 id="test-title">{read?.test_name ?? 'Test'}</h1>
      {problem.value !== null && <Problem error={problem.value} />}
      {notice.value && (
        <p role="status" data-testid="notice">
          {notice.value}
        </p>
      )}
      {read && (
        <dl class="facts">
          <dt>Health</dt>
          <dd>
            <span class={`health health-${read.health_status}`}>{read.health_status}</span>
          </dd>
          <dt>Failure rate</dt>
          <dd>{percent(read.failure_ratio)}</dd>
          <dt>Flakiness</dt>
          <dd>{percent(read.flakiness_ratio)}</dd>
          <dt>Last failure</dt>
          <dd>{when(read.last_failure_at)}</dd>
          <dt>Last success</dt>
          <dd>{when(read.last_success_at)}</dd>
          {read.test_filepath && (
            <>
              <dt>File</dt>
              <dd>{read.test_filepath}</dd>
            </>
          )}
        </dl>
      )}

      <h2>Health over 90 days</h2>
      {transitions.value.length === 0 ? (
        <p>No runs in the window.</p>
      ) : (
        <ol data-testid="health-transitions">
          {transitions.value.map((transition, index) => (
            <li key={transition.at}>
              <time dateTime={transition.at}>{when(transition.at)}</time>:{' '}
              {describeTransition(
                transition,
                index === 0 ? null : (transitions.value[index - 1].health_status as HealthStatus),
              )}
            </li>
          ))}
        </ol>
      )}

      <h2>Recent failures</h2>
      {failures.value.length === 0 ? (
        <p>No failures.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Failures grouped by exception</caption>
          <thead>
            <tr>
              <th scope="col">Exception</th>
              <th scope="col">Times</th>
              <th scope="col">First</th>
              <th scope="col">Last</th>
            </tr>
          </thead>
          <tbody>
            {failures.value.map((failure) => (
              <tr key={failure.id} data-testid="failure-row">
                <td>
                  <strong>{failure.exception_type}</strong>
                  <div class="muted">{failure.exception_message}</div>
                </td>
                <td>{failure.failure_count}</td>
                <td>{when(failure.first_failure_at)}</td>
                <td>{when(failure.last_failure_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Quarantines</h2>
      {quarantines.value.length === 0 ? (
        <p>Not quarantined.</p>
      ) : (
        <ul>
          {quarantines.value.map((quarantine) => (
            <li key={quarantine.id} data-testid="quarantine">
              {quarantineScope(quarantine)}: {quarantine.reason}{' '}
              <span class="muted">
                (since {when(quarantine.created_at)}
                {quarantine.source ? `, ${quarantine.source}` : ''}
                {quarantine.unquarantine_when_healthy ? ', lifted once healthy' : ''})
              </span>{' '}
              <button type="button" onClick={() => void remove(quarantine.id)}>
                Remove quarantine
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="filters" onSubmit={add} aria-labelledby="quarantine-title">
        <h3 id="quarantine-title" class="visually-hidden">
          Quarantine this test
        </h3>
        <label>
          Reason <input name="reason" required maxLength={10000} />
        </label>
        <label>
          Branch <input name="branch" placeholder="every branch" />
        </label>
        <label class="inline">
          <input type="checkbox" name="unquarantine_when_healthy" /> Lift once healthy
        </label>
        <button type="submit" disabled={!read}>
          Quarantine
        </button>
      </form>
    </section>
  );
}
