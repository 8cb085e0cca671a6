/** REST calls and writes (non-GET requests) made against the code host, per port operation. */
export interface CodeHostUsage {
  calls: number;
  writes: number;
  byOperation: Record<string, { calls: number; writes: number }>;
}

export function emptyUsage(): CodeHostUsage {
  return { calls: 0, writes: 0, byOperation: {} };
}

/** Counts one request against an operation; the usage value is mutated in place. */
export function countRequest(usage: CodeHostUsage, operation: string, write: boolean): void {
  const entry = (usage.byOperation[operation] ??= { calls: 0, writes: 0 });
  usage.calls += 1;
  entry.calls += 1;
  if (write) {
    usage.writes += 1;
    entry.writes += 1;
  }
}
