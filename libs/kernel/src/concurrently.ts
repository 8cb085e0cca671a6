/**
 * Runs `work` on each item, at most `concurrency` at once, starting them in the list's order. The
 * first failure rejects, and no item is started after it (those under way finish on their own).
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        next = items.length;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
