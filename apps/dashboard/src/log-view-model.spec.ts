import { nextLink } from './api';
import { histogramSeries, logQuery, NO_FILTERS } from './log-view-model';

describe('activity log filters', () => {
  const now = Date.parse('2026-03-02T10:00:00Z');

  it('asks the API for the window and each filter given, pull requests repeated', () => {
    const query = new URLSearchParams(
      logQuery(
        {
          pullRequest: '42, 43',
          eventType: 'action.queue.leave',
          outcome: 'failure',
          baseRef: 'main',
          hours: 1,
        },
        now,
      ),
    );
    expect(query.getAll('pull_request')).toEqual(['42', '43']);
    expect(query.get('event_type')).toBe('action.queue.leave');
    expect(query.get('outcome')).toBe('failure');
    expect(query.get('base_ref')).toBe('main');
    expect(query.get('received_from')).toBe('2026-03-02T09:00:00.000Z');
    expect(query.get('received_to')).toBe('2026-03-02T10:00:00.000Z');
  });

  it('leaves out the filters not given', () => {
    expect([...new URLSearchParams(logQuery(NO_FILTERS, now)).keys()]).toEqual([
      'received_from',
      'received_to',
    ]);
  });

  it("turns the aggregate's histogram into uPlot's columns", () => {
    expect(
      histogramSeries([
        { start: '2026-03-02T09:00:00Z', count: 3 },
        { start: '2026-03-02T09:30:00Z', count: 0 },
      ]),
    ).toEqual([
      [Date.parse('2026-03-02T09:00:00Z') / 1000, Date.parse('2026-03-02T09:30:00Z') / 1000],
      [3, 0],
    ]);
  });

  it("follows the Link header's next page on the same origin", () => {
    expect(
      nextLink(
        '<http://127.0.0.1:8080/v1/repos/a/b/logs?cursor=xyz&per_page=50>; rel="next", <http://x/first>; rel="first"',
      ),
    ).toBe('/v1/repos/a/b/logs?cursor=xyz&per_page=50');
    expect(nextLink(null)).toBeNull();
  });
});
