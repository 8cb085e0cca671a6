import { EVENT_ID, type Event } from 'js-yaml';

/**
 * Whether `yaml`'s alias guard (`toJS({maxAliasCount})`, which refuses "billion laughs" documents)
 * certainly passes for the document these events describe, so a value built by another parser may
 * stand in for `yaml`'s. `yaml` refuses when, for an anchor, (aliases resolved to it so far) ×
 * (the largest such product among the aliases nested in it, at least 1) exceeds the limit; this
 * computes the same products with every alias counted, which can only be larger. An alias to a
 * node that is still open (a cycle) is never certain.
 */
export function aliasExpansionWithin(events: readonly Event[], text: string, limit: number): boolean {
  const anchorByName = new Map<string, number>();
  const uses: number[] = [];
  /** The anchors an anchored node holds aliases to, by anchor id. */
  const targetsInside: Array<Set<number>> = [];
  const closeOrder: number[] = [];
  /** One entry per open collection: its anchor id, or -1. */
  const open: number[] = [];
  let sawAlias = false;

  const defineAnchor = (start: number, end: number): number => {
    if (start < 0) return -1;
    const id = uses.length;
    uses.push(0);
    targetsInside.push(new Set());
    anchorByName.set(text.slice(start, end), id);
    return id;
  };
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        open.push(-1);
        break;
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING:
        open.push(defineAnchor(event.anchorStart, event.anchorEnd));
        break;
      case EVENT_ID.SCALAR: {
        const id = defineAnchor(event.anchorStart, event.anchorEnd);
        if (id >= 0) closeOrder.push(id);
        break;
      }
      case EVENT_ID.POP: {
        const id = open.pop();
        if (id !== undefined && id >= 0) closeOrder.push(id);
        break;
      }
      case EVENT_ID.ALIAS: {
        sawAlias = true;
        const target = anchorByName.get(text.slice(event.anchorStart, event.anchorEnd));
        if (target === undefined || open.includes(target)) return false;
        uses[target] += 1;
        for (const holder of open) if (holder >= 0) targetsInside[holder].add(target);
        break;
      }
      default:
        break;
    }
  }
  if (!sawAlias) return true;
  const weight: number[] = [];
  for (const id of closeOrder) {
    let nested = 1;
    for (const target of targetsInside[id]) nested = Math.max(nested, uses[target] * (weight[target] ?? 1));
    weight[id] = nested;
    if (uses[id] * nested > limit) return false;
  }
  return true;
}
