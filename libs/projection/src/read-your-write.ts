import type { Position } from '@switchyard/event-store';
import type { ReadModelFreshness } from './freshness';
import { waitUntilVisible } from './write-visibility';

/**
 * The shape of every write that answers read-your-writes: refuse before appending when a read
 * model it must show in has stopped, append, then wait until those read models include it. A wait
 * that ends first is recorded for the answer (write-visibility.ts): the write stands either way.
 */
export async function readYourWrite<Outcome extends { position: Position | null }>(
  freshness: ReadModelFreshness,
  readModels: readonly string[],
  write: () => Promise<Outcome>,
): Promise<Outcome> {
  await freshness.assertRunning(readModels);
  const outcome = await write();
  await waitUntilVisible(freshness, readModels, outcome.position);
  return outcome;
}
