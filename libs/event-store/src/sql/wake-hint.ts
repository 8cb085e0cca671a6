import { encodeSqlPosition } from '../position';
import type { AppendHint } from '../wakeup';

/**
 * The AppendHint in a `sy_events` NOTIFY payload (sy_append sends `{"x": transaction id, "g": last
 * global position, "t": [types]}`). Undefined for anything else, such as the empty payload of an
 * older sy_append or of an append too large to describe: then every reader looks.
 */
export function wakeHintOf(payload: string): AppendHint | undefined {
  if (!payload) return undefined;
  try {
    const { x, g, t } = JSON.parse(payload) as { x?: unknown; g?: unknown; t?: unknown };
    if (typeof x !== 'string' || typeof g !== 'string' || !Array.isArray(t)) return undefined;
    if (!/^\d+$/.test(x) || !/^\d+$/.test(g) || !t.every((type) => typeof type === 'string'))
      return undefined;
    return { types: t as string[], position: encodeSqlPosition(x, g) };
  } catch {
    return undefined;
  }
}
