import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, apiPage } from '../api';
import { testHref } from '../routes';
import {
  ciPath,
  HEALTH_STATUSES,
  NO_TEST_FILTERS,
  percent,
  testSearchQuery,
  type HealthStatus,
  type TestFilters,
} from '../test-health-view-model';
import { Problem } from './problem';

interface TestSearchResultJson {
  test_id: string;
  test_name: string;
  pipeline_name: string;
  job_name: string;
  is_quarantined: boolean;
  metrics: { health_status: HealthStatus; failed_executions_impact: 'low' | 'medium' | 'high' | null };
}
interface TestRow extends TestSearchResultJson {
  /** From the test's details (search results carry no ratio); null while unknown. */
  failureRatio: number | null;
}

const PER_PAGE = 25;

/** A repository's tests, worst first: health, failure rate, impact and quarantine, with filters. */
export function TestsView({ repository }: { repository: string }) {
  const filters = useSignal<TestFilters>(NO_TEST_FILTERS);
  const rows = useSignal<TestRow[] | null>(null);
  const total = useSignal(0);
  const next = useSignal<string | null>(null);
  const problem = useSignal<unknown>(null);
  const base = ciPath(repository);

  const withRatios = (tests: TestSearchResultJson[]): Promise<TestRow[]> =>
    Promise.all(
      tests.map(async (test) => {
        const query = new URLSearchParams({ pipeline_name: test.pipeline_name, job_name: test.job_name });
        const details = await api<{ failure_ratio: number }>(
          'GET',
          `${base}/tests/${encodeURIComponent(test.test_id)}?${query}`,
        ).catch(() => null);
        return { ...test, failureRatio: details?.failure_ratio ?? null };
      }),
    );
  const load = async (from: string | null) => {
    try {
      const page = await apiPage<{ tests: TestSearchResultJson[]; total: number }>(
        'GET',
        from ?? `${base}/search/tests?${testSearchQuery(filters.value, PER_PAGE)}`,
      );
      const loaded = await withRatios(page.body.tests);
      rows.value = from === null ? loaded : [...(rows.value ?? []), ...loaded];
      total.value = page.body.total;
      next.value = page.next;
      problem.value = null;
    } catch (error) {
      problem.value = error;
    }
  };
  useEffect(() => {
    void load(null);
  }, [repository]);

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    filters.value = {
      testName: String(form.get('test_name') ?? ''),
      health: form.getAll('health_status').map(String) as HealthStatus[],
      quarantined: String(form.get('is_quarantined') ?? '') as TestFilters['quarantined'],
    };
    void load(null);
  };

  return (
    <section aria-labelledby="tests-title">
      <h1 id="tests-title">Tests of {repository}</h1>
      <form class="filters" onSubmit={submit}>
        <label>
          Test name <input name="test_name" placeholder="pkg.* (glob)" />
        </label>
        <fieldset class="checks">
          <legend>Health</legend>
          {HEALTH_STATUSES.map((status) => (
            <label key={status}>
              <input type="checkbox" name="health_status" value={status} /> {status}
            </label>
          ))}
        </fieldset>
        <label>
          Quarantine
          <select name="is_quarantined">
            <option value="">any</option>
            <option value="true">quarantined</option>
            <option value="false">not quarantined</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {problem.value !== null && <Problem error={problem.value} />}
      {rows.value === null && problem.value === null && <p aria-live="polite">Loading…</p>}
      {rows.value !== null && (
        <p data-testid="tests-total" aria-live="polite">
          {total.value} tests
        </p>
      )}
      <table>
        <caption class="visually-hidden">Tests, highest failure rate first</caption>
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col">Pipeline / job</th>
            <th scope="col">Health</th>
            <th scope="col">Failure rate</th>
            <th scope="col">Impact</th>
            <th scope="col">Quarantined</th>
          </tr>
        </thead>
        <tbody>
          {rows.value?.map((test) => (
            <tr key={`${test.test_id}-${test.pipeline_name}-${test.job_name}`} data-testid="test-row">
              <th scope="row">
                <a href={testHref(repository, test.test_id)}>{test.test_name}</a>
              </th>
              <td>
                {test.pipeline_name} / {test.job_name}
              </td>
              <td>
                <span class={`health health-${test.metrics.health_status}`}>
                  {test.metrics.health_status}
                </span>
              </td>
              <td>{percent(test.failureRatio)}</td>
              <td>{test.metrics.failed_executions_impact ?? '—'}</td>
              <td>{test.is_quarantined ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next.value && (
        <button type="button" onClick={() => void load(next.value)}>
          More tests
        </button>
      )}
    </section>
  );
}
