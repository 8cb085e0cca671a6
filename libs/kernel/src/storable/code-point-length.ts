/**
 * Length in Unicode code points, as pydantic and the CLI count (client-contract §6); `String.length`
 * counts UTF-16 units, so one emoji would count twice and a reason the client accepted would be
 * refused. Stops early once past `limit`, so checking a 1 MiB body against 255 costs 256 steps.
 */
export function codePointLength(text: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (const _ of text) {
    count++;
    if (count > limit) break;
  }
  return count;
}
