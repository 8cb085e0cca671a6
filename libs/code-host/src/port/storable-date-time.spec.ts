import { isStorableDateTime } from './storable-date-time';

describe('storable date-times', () => {
  it.each([
    '2026-03-02T10:00:00Z',
    '2026-03-02T10:00:00.123+02:00',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
  ])('accepts %s', (text) => expect(isStorableDateTime(text)).toBe(true));

  it.each([
    '+010000-01-01T00:00:00Z',
    '10000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:59:59-01:00',
    '2021-02-30T00:00:00Z',
    '2026-03-02T10:00:00',
    '2026-03-02',
    'yesterday',
  ])('refuses %s', (text) => expect(isStorableDateTime(text)).toBe(false));
});
