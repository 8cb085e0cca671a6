import { DomainError } from '@switchyard/kernel';
import { WINDOW_TOO_WIDE, buildLogQuery, type LogQueryParameters } from './log-query';

const NOW = new Date('2026-07-30T12:00:00Z');
const DAY = 24 * 3600 * 1000;

const refusal = (params: LogQueryParameters): DomainError => {
  try {
    buildLogQuery('Owner/Repo', params, NOW);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('accepted');
};

describe('log query parameters', () => {
  it('defaults to the day ending now', () => {
    expect(buildLogQuery('Owner/Repo', {}, NOW)).toEqual({
      repository: 'owner/repo',
      window: { from: new Date(NOW.getTime() - DAY), to: NOW },
      filters: {},
    });
  });

  it('defaults received_from to one day before received_to, and received_to to now', () => {
    const to = new Date('2026-07-01T00:00:00Z');
    expect(buildLogQuery('o/r', { received_to: to }, NOW).window).toEqual({
      from: new Date(to.getTime() - DAY),
      to,
    });
    const from = new Date('2026-07-10T00:00:00Z');
    expect(buildLogQuery('o/r', { received_from: from }, NOW).window).toEqual({ from, to: NOW });
  });

  it('never defaults received_from to before the first storable instant', () => {
    const to = new Date('0001-01-01T06:00:00Z');
    expect(buildLogQuery('o/r', { received_to: to }, NOW).window).toEqual({
      from: new Date('0001-01-01T00:00:00Z'),
      to,
    });
  });

  it('accepts 93 days and refuses a millisecond more, with the text the CLI quotes', () => {
    const to = new Date('2026-07-30T00:00:00Z');
    const from = new Date(to.getTime() - 93 * DAY);
    expect(buildLogQuery('o/r', { received_from: from, received_to: to }, NOW).window).toEqual({ from, to });
    const error = refusal({ received_from: new Date(from.getTime() - 1), received_to: to });
    expect(error.kind).toBe('unprocessable');
    expect(error.message).toBe("'received_from' and 'received_to' cannot span more than 93 days");
    expect(WINDOW_TOO_WIDE).toBe(error.message);
  });

  it('refuses a received_from left at its default but more than 93 days back', () => {
    expect(refusal({ received_from: new Date(NOW.getTime() - 94 * DAY) }).message).toBe(WINDOW_TOO_WIDE);
  });

  it('refuses a window that runs backwards', () => {
    const error = refusal({ received_from: NOW, received_to: new Date(NOW.getTime() - 1) });
    expect(error.kind).toBe('unprocessable');
    expect(error.message).toMatch(/received_from.*received_to/);
  });

  it.each([
    ['pull_request', 'not_pull_request', [1]],
    ['batch_pull', 'not_batch_pull', [1]],
    ['event_type', 'not_event_type', ['action.queue.enter']],
    ['outcome', 'not_outcome', ['success']],
    ['trigger', 'not_trigger', ['merge queue internal']],
  ] as const)('refuses %s with %s, naming both', (include, exclude, values) => {
    const error = refusal({ [include]: values, [exclude]: values } as LogQueryParameters);
    expect(error.kind).toBe('unprocessable');
    expect(error.message).toBe(`'${include}' and '${exclude}' are mutually exclusive`);
  });

  it('turns each list into an include or exclude filter, once per value', () => {
    const query = buildLogQuery(
      'o/r',
      {
        pull_request: [3, 3, 4],
        not_batch_pull: [9],
        event_type: [
          'action.queue.checks_not_started',
          'action.queue.checks_postponed',
          'action.queue.enter',
        ],
        not_outcome: ['neutral'],
        trigger: ['Rule: a'],
        base_ref: 'main',
      },
      NOW,
    );
    expect(query.filters).toEqual({
      pullRequest: { mode: 'include', values: [3, 4] },
      batchPullRequest: { mode: 'exclude', values: [9] },
      eventType: { mode: 'include', values: ['action.queue.checks_postponed', 'action.queue.enter'] },
      outcome: { mode: 'exclude', values: ['neutral'] },
      trigger: { mode: 'include', values: ['Rule: a'] },
      baseRef: 'main',
    });
  });

  it('maps the deprecated alias in exclusions too', () => {
    const query = buildLogQuery('o/r', { not_event_type: ['action.queue.checks_not_started'] }, NOW);
    expect(query.filters.eventType).toEqual({ mode: 'exclude', values: ['action.queue.checks_postponed'] });
  });
});
