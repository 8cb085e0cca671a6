import { isAtOrAfter, type Position } from '@switchyard/event-store';
import type { ReadModelFreshness } from './freshness';

/**
 * The read side of read-your-writes, for read models that writes do not wait for (the activity
 * log): the answer includes everything stored when the read was asked, whoever wrote it.
 *
 * When this process can tell without I/O how far the read models have got, the read runs beside
 * the head lookup instead of after it. What they included before the read started is in the
 * read's snapshot, so if that is at or past the head, the answer is complete; otherwise it waits
 * for the head and reads again. While the read models keep up, that saves a round trip per read.
 * On timeout the read goes ahead: a slightly stale answer beats none.
 */
export async function readAtHead<T>(
  freshness: ReadModelFreshness,
  headPosition: () => Promise<Position | null>,
  readModels: readonly string[],
  read: () => Promise<T>,
): Promise<T> {
  const included = freshness.includedPosition?.(readModels) ?? null;
  if (included === null) {
    await freshness.waitFor(readModels, await headPosition());
    return read();
  }
  const [head, answer] = await Promise.all([headPosition(), read()]);
  if (head === null || isAtOrAfter(included, head)) return answer;
  await freshness.waitFor(readModels, head);
  return read();
}
