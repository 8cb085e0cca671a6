import { splitWindow } from './window-segments';

const at = (iso: string) => new Date(iso);
const rows = (from: string, to: string, toInclusive: boolean) => ({
  source: 'rows',
  from: at(from),
  to: at(to),
  toInclusive,
});
const slots = (grainSeconds: number, from: string, to: string) => ({
  source: 'slots',
  grainSeconds,
  from: at(from),
  to: at(to),
});

describe('window segments', () => {
  it('reads whole days, then whole hours, then the ragged ends from the rows', () => {
    const window = { from: at('2026-07-01T10:17:00Z'), to: at('2026-07-04T14:05:00Z') };
    expect(splitWindow(window, [3600, 86400])).toEqual([
      rows('2026-07-01T10:17:00Z', '2026-07-01T11:00:00Z', false),
      slots(3600, '2026-07-01T11:00:00Z', '2026-07-02T00:00:00Z'),
      slots(86400, '2026-07-02T00:00:00Z', '2026-07-04T00:00:00Z'),
      slots(3600, '2026-07-04T00:00:00Z', '2026-07-04T14:00:00Z'),
      rows('2026-07-04T14:00:00Z', '2026-07-04T14:05:00Z', true),
    ]);
  });

  it('keeps the inclusive end when the window ends on a slot boundary', () => {
    const window = { from: at('2026-07-01T10:00:00Z'), to: at('2026-07-01T12:00:00Z') };
    expect(splitWindow(window, [3600])).toEqual([
      slots(3600, '2026-07-01T10:00:00Z', '2026-07-01T12:00:00Z'),
      rows('2026-07-01T12:00:00Z', '2026-07-01T12:00:00Z', true),
    ]);
  });

  it('falls back to finer slots, then rows, when a coarse slot does not fit', () => {
    const window = { from: at('2026-07-01T10:17:00Z'), to: at('2026-07-01T11:40:00Z') };
    expect(splitWindow(window, [900, 3600])).toEqual([
      rows('2026-07-01T10:17:00Z', '2026-07-01T10:30:00Z', false),
      slots(900, '2026-07-01T10:30:00Z', '2026-07-01T11:30:00Z'),
      rows('2026-07-01T11:30:00Z', '2026-07-01T11:40:00Z', true),
    ]);
    expect(splitWindow(window, [])).toEqual([rows('2026-07-01T10:17:00Z', '2026-07-01T11:40:00Z', true)]);
  });

  it('tiles the window without gaps or overlaps', () => {
    const window = { from: at('2026-06-03T23:59:59.999Z'), to: at('2026-07-01T00:00:00.001Z') };
    const segments = splitWindow(window, [900, 3600, 86400]);
    expect(segments[0]!.from).toEqual(window.from);
    expect(segments[segments.length - 1]!.to).toEqual(window.to);
    segments.slice(1).forEach((segment, index) => expect(segment.from).toEqual(segments[index]!.to));
  });
});
