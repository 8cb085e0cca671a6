import { toResponseTime, toResponseTimeOrNull } from './response-time';

describe('toResponseTime', () => {
  it('formats Dates in UTC with Z', () => {
    expect(toResponseTime(new Date('2026-05-01T02:00:00+02:00'))).toBe('2026-05-01T00:00:00.000Z');
  });

  it('normalises PostgreSQL text to Z and keeps microseconds', () => {
    expect(toResponseTime('2026-07-20 23:25:11.263987+00')).toBe('2026-07-20T23:25:11.263987Z');
    expect(toResponseTime('2026-07-21T01:25:11+02:00')).toBe('2026-07-20T23:25:11Z');
  });

  it('throws rather than emit an offset-less time', () => {
    expect(() => toResponseTime('2026-07-20T23:25:11')).toThrow(/offset/);
    expect(() => toResponseTime(new Date('garbage'))).toThrow(/invalid/);
  });

  it('passes null through', () => {
    expect(toResponseTimeOrNull(null)).toBeNull();
    expect(toResponseTimeOrNull(undefined)).toBeNull();
  });
});
