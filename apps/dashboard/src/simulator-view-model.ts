/** The configuration simulator page's reading of the API's answers (spec "Simulator"). */

export interface ConfigurationProblem {
  path: string;
  line: number | null;
  column: number | null;
  message: string;
}

export interface DeprecationInfoJson {
  message: string;
  deadline: string;
  path_to_field: string[] | null;
}

/**
 * The problems of a 422 answer, one per issue: a configuration problem carries its path, line and
 * column in `ctx`; any other issue (an empty or oversized body) keeps only its message.
 */
export function configurationProblems(body: unknown): ConfigurationProblem[] {
  const detail = (body as { detail?: unknown } | null | undefined)?.detail;
  if (!Array.isArray(detail)) return [];
  return detail.map(
    (issue: { msg?: unknown; ctx?: { path?: unknown; line?: unknown; column?: unknown } }) => ({
      path: typeof issue.ctx?.path === 'string' ? issue.ctx.path : '',
      line: typeof issue.ctx?.line === 'number' ? issue.ctx.line : null,
      column: typeof issue.ctx?.column === 'number' ? issue.ctx.column : null,
      message: typeof issue.msg === 'string' ? issue.msg : String(issue.msg),
    }),
  );
}

/** Where a problem is, as a person reads it: "line 3, column 5", or nothing when unknown. */
export function positionOf(problem: ConfigurationProblem): string {
  if (problem.line === null) return '';
  return problem.column === null ? `line ${problem.line}` : `line ${problem.line}, column ${problem.column}`;
}

/** A deprecation's field as a dotted path (list indexes in brackets), or null when not tied to one. */
export function deprecatedField(deprecation: DeprecationInfoJson): string | null {
  if (deprecation.path_to_field === null) return null;
  return deprecation.path_to_field
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

/** POST …/merge-queue/simulation: what `switchyard simulate` reports for the configuration. */
export interface QueueSimulationJson {
  workload: { arrivals: string; ci: string; failure: string; flaky: string; hours: number; seed: number };
  arrived: number;
  merged: number;
  merged_per_hour: number;
  time_to_merge_minutes: { p50: number | null; p95: number | null };
  ci_runs: number;
  ci_runs_per_merged_pull_request: number | null;
  dequeued: number;
  still_queued: number;
  report: string[];
}

const minutesInWords = (minutes: number | null): string =>
  minutes === null ? 'n/a' : `${Math.round(minutes)} min`;

/** The estimate's headline figures, as label and value, in the order the CLI prints them. */
export function throughputFigures(simulation: QueueSimulationJson): { label: string; value: string }[] {
  return [
    {
      label: 'Throughput',
      value: `${simulation.merged_per_hour.toFixed(2)} merged per hour (${simulation.merged} of ${simulation.arrived} queued)`,
    },
    {
      label: 'Time to merge',
      value: `p50 ${minutesInWords(simulation.time_to_merge_minutes.p50)}, p95 ${minutesInWords(simulation.time_to_merge_minutes.p95)}`,
    },
    {
      label: 'CI runs per merged pull request',
      value:
        simulation.ci_runs_per_merged_pull_request === null
          ? 'n/a'
          : simulation.ci_runs_per_merged_pull_request.toFixed(2),
    },
    { label: 'Dequeued', value: String(simulation.dequeued) },
  ];
}

/** The simulated workload in words. */
export function workloadInWords(workload: QueueSimulationJson['workload']): string {
  return `${workload.arrivals} arriving, CI ${workload.ci}, ${workload.failure} broken, ${workload.flaky} flaky runs, ${workload.hours} h simulated`;
}
