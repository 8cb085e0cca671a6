import { timed } from './workload';

/** A reader that reads one page per call and says when it has reached the end. */
export type PageReader = () => Promise<boolean>;

/**
 * Times two readers page by page, one page of each in turn, so that a neighbour's load spike on the
 * shared machine lands on both alike; returns the total milliseconds each spent.
 */
export async function interleavedPages(
  ours: PageReader,
  raw: PageReader,
): Promise<{ oursMs: number; rawMs: number }> {
  let oursMs = 0;
  let rawMs = 0;
  let oursDone = false;
  let rawDone = false;
  while (!oursDone || !rawDone) {
    if (!oursDone) oursMs += await timed(async () => void (oursDone = await ours()));
    if (!rawDone) rawMs += await timed(async () => void (rawDone = await raw()));
  }
  return { oursMs, rawMs };
}
