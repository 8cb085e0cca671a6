import { useSignal } from '@preact/signals';
import { api, ApiError, repoPath } from '../api';
import {
  configurationProblems,
  deprecatedField,
  positionOf,
  throughputFigures,
  workloadInWords,
  type ConfigurationProblem,
  type DeprecationInfoJson,
  type QueueSimulationJson,
} from '../simulator-view-model';
import { Problem } from './problem';

type Verdict =
  | { valid: true; message: string; deprecations: DeprecationInfoJson[] }
  | { valid: false; problems: ConfigurationProblem[] };

/** Paste a .mergify.yml, and see what the service's configuration-simulator makes of it. */
export function SimulatorView({ repository }: { repository: string }) {
  const verdict = useSignal<Verdict | null>(null);
  const problem = useSignal<unknown>(null);
  const checking = useSignal(false);
  const estimate = useSignal<QueueSimulationJson | null>(null);
  const estimating = useSignal(false);

  const check = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = String(form.get('mergify_yml') ?? '');
    const workload = { arrivals: String(form.get('arrivals') ?? ''), ci: String(form.get('ci') ?? '') };
    checking.value = true;
    estimate.value = null;
    try {
      const answer = await api<{ message: string; deprecations: DeprecationInfoJson[] }>(
        'POST',
        `${repoPath(repository)}/configuration-simulator`,
        { mergify_yml: text },
      );
      verdict.value = { valid: true, ...answer };
      problem.value = null;
      void estimateThroughput(text, workload);
    } catch (error) {
      const problems =
        error instanceof ApiError && error.status === 422 ? configurationProblems(error.body) : [];
      if (problems.length > 0) {
        verdict.value = { valid: false, problems };
        problem.value = null;
      } else {
        verdict.value = null;
        problem.value = error;
      }
    } finally {
      checking.value = false;
    }
  };

  /** The `switchyard simulate` estimate, asked for once the configuration is known to be valid. */
  const estimateThroughput = async (text: string, workload: { arrivals: string; ci: string }) => {
    estimating.value = true;
    try {
      estimate.value = await api<QueueSimulationJson>(
        'POST',
        `${repoPath(repository)}/merge-queue/simulation`,
        {
          mergify_yml: text,
          ...(workload.arrivals ? { arrivals: workload.arrivals } : {}),
          ...(workload.ci ? { ci: workload.ci } : {}),
        },
      );
    } catch (error) {
      problem.value = error;
    } finally {
      estimating.value = false;
    }
  };

  const shown = verdict.value;
  return (
    <section aria-labelledby="simulator-title">
      <h1 id="simulator-title">Configuration simulator for {repository}</h1>
      <form onSubmit={check}>
        <label for="mergify-yml">.mergify.yml</label>
        <textarea id="mergify-yml" name="mergify_yml" rows={16} spellcheck={false} class="code" required />
        <fieldset class="filters">
          <legend>Workload for the throughput estimate</legend>
          <label>
            Pull requests arriving <input name="arrivals" placeholder="20/h" />
          </label>
          <label>
            CI duration <input name="ci" placeholder="30m±20%" />
          </label>
        </fieldset>
        <button type="submit" disabled={checking.value}>
          Check the configuration
        </button>
      </form>
      {problem.value !== null && <Problem error={problem.value} />}
      <div aria-live="polite" data-testid="verdict">
        {shown?.valid === true && (
          <>
            <p class="outcome-success">{shown.message}</p>
            {shown.deprecations.length > 0 && (
              <>
                <h2>Deprecations</h2>
                <ul>
                  {shown.deprecations.map((deprecation) => (
                    <li key={`${deprecation.message}-${deprecation.deadline}`} data-testid="deprecation">
                      {deprecatedField(deprecation) && <code>{deprecatedField(deprecation)}</code>}{' '}
                      {deprecation.message} (rejected after {deprecation.deadline})
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
        {shown?.valid === true && estimating.value && <p role="status">Simulating a day of this queue…</p>}
        {shown?.valid === true && estimate.value && (
          <section aria-labelledby="estimate-title" data-testid="throughput-estimate">
            <h2 id="estimate-title">Throughput estimate</h2>
            <p class="muted">
              What <code>switchyard simulate</code> reports for this configuration:{' '}
              {workloadInWords(estimate.value.workload)}.
            </p>
            <dl class="figures">
              {throughputFigures(estimate.value).map((figure) => (
                <div key={figure.label}>
                  <dt>{figure.label}</dt>
                  <dd>{figure.value}</dd>
                </div>
              ))}
            </dl>
            <details>
              <summary>The full report</summary>
              <pre class="code">{estimate.value.report.join('\n')}</pre>
            </details>
          </section>
        )}
        {shown?.valid === false && (
          <>
            <p class="outcome-failure">The configuration is invalid.</p>
            <table>
              <caption class="visually-hidden">Problems of the configuration</caption>
              <thead>
                <tr>
                  <th scope="col">Where</th>
                  <th scope="col">Field</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {shown.problems.map((entry, index) => (
                  <tr key={index} data-testid="configuration-problem">
                    <td>{positionOf(entry) || '—'}</td>
                    <td>
                      <code>{entry.path || '—'}</code>
                    </td>
                    <td>{entry.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </section>
  );
}
