import { AsyncLocalStorage } from 'node:async_hooks';
import type { Position } from '@switchyard/event-store';
import type { ReadModelFreshness } from './freshness';

/**
 * What one request's writes left unseen: the read models whose read-your-writes wait ended before
 * they included the write (timed out, or the processor stopped meanwhile). The write is stored and
 * will show; only the answer must not claim it shows already. The HTTP layer opens one per write
 * request and answers 202 instead of 200/201/204 when it is not empty (README, "Read-your-writes").
 */
export class WriteVisibility {
  private readonly lagging = new Set<string>();

  note(readModels: readonly string[]): void {
    for (const name of readModels) this.lagging.add(name);
  }

  /** The read models that did not include a write of this request in time, in the order noted. */
  get notYetVisibleIn(): readonly string[] {
    return [...this.lagging];
  }
}

const current = new AsyncLocalStorage<WriteVisibility>();

/** Runs the work with its writes' visibility recorded in `visibility`. */
export function recordingWriteVisibility<T>(visibility: WriteVisibility, work: () => T): T {
  return current.run(visibility, work);
}

/**
 * The wait of read-your-writes: true once every named read model includes the position. On false
 * (a timeout, or a processor that stopped), the request being served learns that its write is
 * stored but not yet visible there, so it does not answer as if it were.
 */
export async function waitUntilVisible(
  freshness: ReadModelFreshness,
  readModels: readonly string[],
  position: Position | null,
): Promise<boolean> {
  const visible = await freshness.waitFor(readModels, position);
  if (!visible) current.getStore()?.note(readModels);
  return visible;
}
