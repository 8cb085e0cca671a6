import { parseRfc3339 } from './rfc3339';

describe('parseRfc3339', () => {
  it.each([
    ['2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z'],
    ['2026-05-01T02:00:00+02:00', '2026-05-01T00:00:00Z'],
    ['2026-05-01T02:00:00+0200', '2026-05-01T00:00:00Z'],
    ['2026-04-30T23:30:00-00:30', '2026-05-01T00:00:00Z'],
    ['2026-05-01 00:00:00.263987+00', '2026-05-01T00:00:00.263987Z'],
    ['2026-05-01T00:00:00.123456789Z', '2026-05-01T00:00:00.123456Z'],
    ['2026-05-01T00:00Z', '2026-05-01T00:00:00Z'],
    ['2024-02-29T12:00:00z', '2024-02-29T12:00:00Z'],
  ])('reads %s as %s', (input, iso) => {
    const result = parseRfc3339(input);
    expect(result).toEqual({ ok: true, value: { iso, date: expect.any(Date) } });
    if (result.ok) expect(result.value.date.toISOString().slice(0, 19)).toBe(iso.slice(0, 19));
  });

  it('keeps millisecond precision in the Date', () => {
    const result = parseRfc3339('2026-05-01T00:00:00.987654+01:00');
    expect(result.ok && result.value.date.toISOString()).toBe('2026-04-30T23:00:00.987Z');
  });

  it.each([
    ['2026-05-01T00:00:00', 'missing_offset'],
    ['2026-05-01', 'missing_offset'],
    ['1714521600', 'unix_timestamp'],
    ['1714521600.5', 'unix_timestamp'],
    ['2026-02-29T00:00:00Z', 'invalid'],
    ['2026-13-01T00:00:00Z', 'invalid'],
    ['2026-05-01T24:00:00Z', 'invalid'],
    ['2026-05-01T00:00:60Z', 'invalid'],
    ['2026-05-01T00:00:00+24:00', 'invalid'],
    ['next tuesday', 'invalid'],
    ['', 'invalid'],
  ])('refuses %s (%s)', (input, reason) => {
    expect(parseRfc3339(input)).toEqual({ ok: false, reason });
  });

  it('refuses non-strings', () => {
    expect(parseRfc3339(1714521600)).toEqual({ ok: false, reason: 'not_a_string' });
  });

  it('handles years below 100 without the Date.UTC 1900 shift', () => {
    const result = parseRfc3339('0050-01-01T00:00:00Z');
    expect(result.ok && result.value.iso).toBe('0050-01-01T00:00:00Z');
  });
});
