import type { TimeWindow } from './log-query';

/**
 * How an aggregate reads a window from pre-counted time slots: the largest slots wholly inside the
 * window come from the coarsest table, what is left at either end from the next finer one, and
 * only the ragged ends no slot covers from the log rows. Slots are aligned on the Unix epoch and
 * each grain divides the next (15 min, 1 h, 1 day), so the pieces tile the window exactly.
 */
export type WindowSegment =
  | { source: 'rows'; from: Date; to: Date; toInclusive: boolean }
  | { source: 'slots'; grainSeconds: number; from: Date; to: Date };

interface Part {
  from: number;
  to: number;
  toInclusive: boolean;
}

function split(part: Part, grains: readonly number[]): WindowSegment[] {
  if (grains.length === 0) {
    return [
      { source: 'rows', from: new Date(part.from), to: new Date(part.to), toInclusive: part.toInclusive },
    ];
  }
  const grain = grains[grains.length - 1]!;
  const finer = grains.slice(0, -1);
  const step = grain * 1000;
  const first = Math.ceil(part.from / step) * step;
  const last = Math.floor(part.to / step) * step;
  if (first >= last) return split(part, finer);
  const segments: WindowSegment[] = [];
  if (part.from < first) segments.push(...split({ from: part.from, to: first, toInclusive: false }, finer));
  segments.push({ source: 'slots', grainSeconds: grain, from: new Date(first), to: new Date(last) });
  if (last < part.to || part.toInclusive) {
    segments.push(...split({ from: last, to: part.to, toInclusive: part.toInclusive }, finer));
  }
  return segments;
}

/** The window (both ends inclusive) as slots of the given grains (ascending) and rows. */
export function splitWindow(window: TimeWindow, grainsSeconds: readonly number[]): WindowSegment[] {
  return split({ from: window.from.getTime(), to: window.to.getTime(), toInclusive: true }, grainsSeconds);
}
