import { isIanaTimeZone } from './iana-time-zone';
import { parseNaiveDateTime } from './naive-date-time';
import { renderNaive, resolveNaive } from './naive-time-in-zone';

describe('naive times in a zone', () => {
  describe('parsing', () => {
    it.each([
      ['2099-01-01T00:00:00', '2099-01-01T00:00:00'],
      ['2099-01-01T00:00', '2099-01-01T00:00:00'],
      ['2099-01-01 23:59:59', '2099-01-01T23:59:59'],
      ['2099-01-01T10:11:12.345678', '2099-01-01T10:11:12'],
      ['2028-02-29T12:00:00', '2028-02-29T12:00:00'],
      ['2099-01-01', '2099-01-01T00:00:00'],
    ])('accepts %s as %s', (text, seconds) =>
      expect(parseNaiveDateTime(text)).toEqual({ ok: true, value: expect.objectContaining({ seconds }) }),
    );

    it.each([
      '2099-01-01T00:00:00Z',
      '2099-01-01T00:00:00z',
      '2099-01-01T00:00:00+02:00',
      '2099-01-01T00:00-0500',
      '2099-01-01 00:00:00+01',
    ])('refuses %s as carrying an offset', (text) =>
      expect(parseNaiveDateTime(text)).toEqual({ ok: false, reason: 'has_offset' }),
    );

    it.each([
      '2099-1-01',
      '2099-13-01T00:00:00',
      '2027-02-29T00:00:00',
      '2099-01-01T24:00:00',
      '2099-01-01T10',
      'soon',
      '',
    ])('refuses %s as not a date-time', (text) =>
      expect(parseNaiveDateTime(text)).toEqual({ ok: false, reason: 'invalid' }),
    );
  });

  describe('timezones', () => {
    it.each(['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+2'])('accepts %s', (zone) =>
      expect(isIanaTimeZone(zone)).toBe(true),
    );
    it.each(['Mars/Olympus_Mons', '+02:00', '-05:30', '+0200', 'UTC+2', '', 'local'])('refuses %j', (zone) =>
      expect(isIanaTimeZone(zone)).toBe(false),
    );
  });

  describe('resolution with luxon', () => {
    it('reads the wall clock in the zone, winter and summer', () => {
      expect(resolveNaive('2026-01-15T09:00:00', 'Europe/Paris').toISOString()).toBe(
        '2026-01-15T08:00:00.000Z',
      );
      expect(resolveNaive('2026-07-15T09:00:00', 'Europe/Paris').toISOString()).toBe(
        '2026-07-15T07:00:00.000Z',
      );
      expect(resolveNaive('2026-07-15T09:00:00', 'America/New_York').toISOString()).toBe(
        '2026-07-15T13:00:00.000Z',
      );
    });

    it('moves a time inside the spring-forward gap forward by the gap (Paris 02:30 does not exist)', () => {
      // 2026-03-29: Paris jumps from 02:00 CET to 03:00 CEST; luxon reads 02:30 as 03:30 CEST.
      expect(resolveNaive('2026-03-29T02:30:00', 'Europe/Paris').toISOString()).toBe(
        '2026-03-29T01:30:00.000Z',
      );
      expect(resolveNaive('2026-03-29T03:30:00', 'Europe/Paris').toISOString()).toBe(
        '2026-03-29T01:30:00.000Z',
      );
      // New York 2026-03-08 02:30 does not exist either.
      expect(resolveNaive('2026-03-08T02:30:00', 'America/New_York').toISOString()).toBe(
        '2026-03-08T07:30:00.000Z',
      );
    });

    it('reads a time inside the fall-back overlap as luxon does: the standard-time (second) occurrence', () => {
      // 2026-10-25: Paris shows 02:30 twice, at 00:30Z (CEST) and at 01:30Z (CET).
      expect(resolveNaive('2026-10-25T02:30:00', 'Europe/Paris').toISOString()).toBe(
        '2026-10-25T01:30:00.000Z',
      );
      // 2026-11-01: New York shows 01:30 at 05:30Z (EDT) and 06:30Z (EST).
      expect(resolveNaive('2026-11-01T01:30:00', 'America/New_York').toISOString()).toBe(
        '2026-11-01T06:30:00.000Z',
      );
    });

    it('renders an instant as the naive wall clock of the zone', () => {
      expect(renderNaive(new Date('2026-10-25T00:30:00.900Z'), 'Europe/Paris')).toBe('2026-10-25T02:30:00');
      expect(renderNaive(new Date('2026-10-25T01:30:00Z'), 'Europe/Paris')).toBe('2026-10-25T02:30:00');
      expect(renderNaive(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T05:30:00');
    });
  });
});
