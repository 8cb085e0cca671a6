import { histogramBuckets, histogramInterval } from './histogram';

const window = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });

describe('histogram', () => {
  it.each([
    ['2026-07-01T00:00:00Z', '2026-07-01T00:10:00Z', 60],
    ['2026-07-01T00:00:00Z', '2026-07-01T01:00:00Z', 60],
    ['2026-07-01T00:00:00Z', '2026-07-01T06:00:00Z', 300],
    ['2026-07-01T00:00:00Z', '2026-07-02T00:00:00Z', 900],
    ['2026-07-01T00:00:00Z', '2026-07-04T00:00:00Z', 3600],
    ['2026-07-01T00:00:00Z', '2026-07-08T00:00:00Z', 3 * 3600],
    ['2026-07-01T00:00:00Z', '2026-07-31T00:00:00Z', 12 * 3600],
    ['2026-04-28T00:00:00Z', '2026-07-30T00:00:00Z', 86400],
  ])('picks the smallest step giving at most 100 buckets for %s .. %s: %ss', (from, to, step) => {
    const w = window(from, to);
    expect(histogramInterval(w)).toBe(step);
    expect(histogramBuckets(w, step, new Map()).length).toBeLessThanOrEqual(100);
  });

  it('aligns buckets on the epoch and tiles the window, zero-filled', () => {
    const w = window('2026-07-01T00:07:30Z', '2026-07-01T00:20:00Z');
    const buckets = histogramBuckets(
      w,
      300,
      new Map([[Math.floor(Date.parse('2026-07-01T00:10:00Z') / 300000), 4]]),
    );
    expect(buckets.map((b) => [b.start.toISOString(), b.end.toISOString(), b.count])).toEqual([
      ['2026-07-01T00:05:00.000Z', '2026-07-01T00:10:00.000Z', 0],
      ['2026-07-01T00:10:00.000Z', '2026-07-01T00:15:00.000Z', 4],
      ['2026-07-01T00:15:00.000Z', '2026-07-01T00:20:00.000Z', 0],
      ['2026-07-01T00:20:00.000Z', '2026-07-01T00:25:00.000Z', 0],
    ]);
  });
});
