import {
  clampStorableInstantText,
  clampToStorableInstant,
  isStorableInstant,
  MAX_STORABLE_INSTANT_ISO,
  MAX_STORABLE_INSTANT_MS,
  MIN_STORABLE_INSTANT_ISO,
  MIN_STORABLE_INSTANT_MS,
} from './storable-instant';

describe('storable instants', () => {
  it('spans years 1 to 9999 in UTC, both ends included', () => {
    expect(new Date(MIN_STORABLE_INSTANT_MS).toISOString()).toBe(MIN_STORABLE_INSTANT_ISO);
    expect(new Date(MAX_STORABLE_INSTANT_MS).toISOString()).toBe(MAX_STORABLE_INSTANT_ISO);
    expect(isStorableInstant(new Date(MIN_STORABLE_INSTANT_ISO))).toBe(true);
    expect(isStorableInstant(new Date(MAX_STORABLE_INSTANT_ISO))).toBe(true);
  });

  it.each(['0000-12-31T23:59:59.999Z', '+010000-01-01T00:00:00.000Z', '-000001-12-31T23:50:39.000Z'])(
    'refuses %s',
    (iso) => expect(isStorableInstant(new Date(iso))).toBe(false),
  );

  it('refuses an invalid date', () => expect(isStorableInstant(new Date('garbage'))).toBe(false));

  it('clamps into the range and leaves storable instants alone', () => {
    expect(clampToStorableInstant(new Date('-000001-12-31T23:50:39Z')).toISOString()).toBe(
      MIN_STORABLE_INSTANT_ISO,
    );
    expect(clampToStorableInstant(8.64e15).toISOString()).toBe(MAX_STORABLE_INSTANT_ISO);
    expect(clampStorableInstantText('-000001-12-31T23:50:39.000Z')).toBe(MIN_STORABLE_INSTANT_ISO);
    expect(clampStorableInstantText('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
  });
});
