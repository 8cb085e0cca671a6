import type { Arrivals, CiDuration } from './workload';

/**
 * Parsing of the what-if flags: `20/h` (or `/d`) arrivals, `30m±20%` CI durations (`+-` works
 * too; `s`, `m`, `h` units), `5%` or `0.05` rates. Each throws an Error whose message says what
 * was expected.
 */
export function parseArrivals(text: string): Arrivals {
  const burst = /^burst:(\d+)$/.exec(text.trim());
  if (burst) return { kind: 'burst', count: Number(burst[1]) };
  const match = /^(\d+(?:\.\d+)?)\s*\/\s*(h|d)$/.exec(text.trim());
  if (!match || Number(match[1]) <= 0)
    throw new Error(`arrivals: expected a rate such as "20/h" or "150/d", or "burst:40", got "${text}"`);
  const perUnit = Number(match[1]);
  return { kind: 'poisson', perHour: match[2] === 'd' ? perUnit / 24 : perUnit };
}

const UNIT_MINUTES: Record<string, number> = { s: 1 / 60, m: 1, h: 60 };

export function parseCiDuration(text: string): CiDuration {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h)\s*(?:(?:±|\+-|\+\/-)\s*(\d+(?:\.\d+)?)\s*%)?$/.exec(text.trim());
  if (!match || Number(match[1]) <= 0)
    throw new Error(`ci: expected a duration such as "30m", "30m±20%" or "2h+-10%", got "${text}"`);
  const spread = match[3] === undefined ? 0 : Number(match[3]) / 100;
  if (spread >= 1) throw new Error(`ci: the spread must be below 100%, got "${text}"`);
  return { minutes: Number(match[1]) * UNIT_MINUTES[match[2]!]!, spread, shape: 'uniform' };
}

export function parseRate(name: string, text: string): number {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
  const value = percent ? Number(percent[1]) / 100 : /^\d*\.?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(value) || value < 0 || value >= 1)
    throw new Error(`${name}: expected a rate such as "5%" or "0.05" (below 100%), got "${text}"`);
  return value;
}
