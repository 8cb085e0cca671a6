import type { RunContext, RunResults, TestExecution } from './test-results';

/**
 * An upload's executions as one array per field, all the same length: how events carry them. Keys
 * are written once per event instead of once per execution, which halves the JSON and makes it
 * much cheaper to store as jsonb and to read back (arrays of scalars, no thousand small objects).
 */
export type ExecutionColumns = { [Field in keyof TestExecution]: TestExecution[Field][] };

const FIELDS = [
  'traceId',
  'spanId',
  'testName',
  'conclusion',
  'finishedAt',
  'durationMs',
  'quarantined',
  'filepath',
  'functionName',
  'exceptionType',
  'exceptionMessage',
  'exceptionStacktrace',
] as const satisfies readonly (keyof TestExecution)[];

export function toExecutionColumns(executions: readonly TestExecution[]): ExecutionColumns {
  const columns = Object.fromEntries(FIELDS.map((field) => [field, executions.map((e) => e[field])]));
  return columns as ExecutionColumns;
}

/** The executions of one upload that share a run context, in columns: what an upload is recorded from. */
export interface RunColumns {
  run: RunContext;
  executions: ExecutionColumns;
}

/**
 * Made where an upload is read (on the OTLP worker thread): a dozen arrays of scalars cross to the
 * event loop for a third of what a thousand small objects cost, and the event needs columns anyway.
 */
export const toRunColumns = (runs: readonly RunResults[]): RunColumns[] =>
  runs.map(({ run, executions }) => ({ run, executions: toExecutionColumns(executions) }));

export const executionCount = (columns: ExecutionColumns): number => columns.testName.length;

/** Rows start..end (exclusive) of every column. */
export function sliceExecutionColumns(
  columns: ExecutionColumns,
  start: number,
  end: number,
): ExecutionColumns {
  const sliced = Object.fromEntries(FIELDS.map((field) => [field, columns[field].slice(start, end)]));
  return sliced as ExecutionColumns;
}

/**
 * Events recorded before the columnar form carry one object per execution; readers take either,
 * so a replay of an old store rebuilds the same read model.
 */
export const executionColumnsOf = (
  executions: ExecutionColumns | readonly TestExecution[],
): ExecutionColumns => (isExecutionRows(executions) ? toExecutionColumns(executions) : executions);

const isExecutionRows = (
  executions: ExecutionColumns | readonly TestExecution[],
): executions is readonly TestExecution[] => Array.isArray(executions);
