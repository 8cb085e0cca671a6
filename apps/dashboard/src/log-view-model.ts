/** The activity log page's filters, as the form holds them and as the API's query takes them. */
export interface LogFilters {
  pullRequest: string;
  eventType: string;
  outcome: string;
  baseRef: string;
  /** Hours back from now that the window starts. */
  hours: number;
}

export const NO_FILTERS: LogFilters = { pullRequest: '', eventType: '', outcome: '', baseRef: '', hours: 24 };

/** The query string both `logs` and `logs/aggregate` take for these filters at `now`. */
export function logQuery(filters: LogFilters, now: number): string {
  const query = new URLSearchParams();
  for (const number of filters.pullRequest.split(/[\s,]+/).filter(Boolean))
    query.append('pull_request', number);
  if (filters.eventType) query.append('event_type', filters.eventType);
  if (filters.outcome) query.append('outcome', filters.outcome);
  if (filters.baseRef) query.set('base_ref', filters.baseRef);
  query.set('received_from', new Date(now - filters.hours * 3_600_000).toISOString());
  query.set('received_to', new Date(now).toISOString());
  return query.toString();
}

/** uPlot's columns for the aggregate's histogram: bucket starts in seconds, and counts. */
export function histogramSeries(
  histogram: readonly { start: string; count: number }[],
): [number[], number[]] {
  return [
    histogram.map((bucket) => Date.parse(bucket.start) / 1000),
    histogram.map((bucket) => bucket.count),
  ];
}
