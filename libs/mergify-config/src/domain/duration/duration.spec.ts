import { formatDuration, parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['30 seconds', 30],
    ['5min', 300],
    ['5 min', 300],
    ['60m', 3600],
    ['10800 s', 10_800],
    ['1 day 15 hours 6 minutes 42 seconds', 86_400 + 15 * 3600 + 6 * 60 + 42],
    ['1 d 15 h 6 m 42 s', 86_400 + 15 * 3600 + 6 * 60 + 42],
    ['1.5 hours', 5400],
    ['2 HOURS', 7200],
    ['1 h -30 m', 1800],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(parseDuration(text)).toEqual({ ok: true, seconds });
  });

  it.each(['', '   ', '60', '5 fortnights', '5 min later', 'soon'])('refuses %j', (text) => {
    expect(parseDuration(text)).toMatchObject({ ok: false });
  });

  it('formats seconds back into words', () => {
    expect(formatDuration(5400)).toBe('1 hour 30 minutes');
    expect(formatDuration(30)).toBe('30 seconds');
    expect(formatDuration(0)).toBe('0 seconds');
  });
});
