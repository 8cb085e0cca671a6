import { parseNaiveDateTime } from './naive-date-time';

describe('parseNaiveDateTime', () => {
  it.each([
    ['2099-01-01T00:00:00', '2099-01-01T00:00:00'],
    ['2099-01-01T10:30', '2099-01-01T10:30:00'],
    ['2099-01-01 10:30:15.5', '2099-01-01T10:30:15.5'],
    ['2099-01-01', '2099-01-01T00:00:00'],
  ])('reads %s as %s', (input, iso) => {
    expect(parseNaiveDateTime(input)).toEqual({ ok: true, value: expect.objectContaining({ iso }) });
  });

  it.each([
    ['2099-01-01T00:00:00Z', 'has_offset'],
    ['2099-01-01T00:00:00+01:00', 'has_offset'],
    ['2099-02-30T00:00:00', 'invalid'],
    ['tomorrow', 'invalid'],
  ])('refuses %s (%s)', (input, reason) => {
    expect(parseNaiveDateTime(input)).toEqual({ ok: false, reason });
  });

  it('refuses non-strings', () => {
    expect(parseNaiveDateTime(null)).toEqual({ ok: false, reason: 'not_a_string' });
  });
});
