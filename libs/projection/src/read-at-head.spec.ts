import { encodeSqlPosition, isAtOrAfter, type Position } from '@switchyard/event-store';
import type { ReadModelFreshness } from './freshness';
import { readAtHead } from './read-at-head';

const P1 = encodeSqlPosition(10n, 1n);
const P2 = encodeSqlPosition(10n, 2n);
const LOG = ['activity-log'];

/** A read model at `committed`, which a wait moves to the awaited position (as its runner would). */
function readModelAt(committed: Position | 'start' | null, knowsWithoutIo = true) {
  const steps: string[] = [];
  let position = committed;
  const freshness: ReadModelFreshness = {
    assertRunning: async () => {},
    waitFor: async (_models, target) => {
      steps.push(`wait ${target}`);
      if (target !== null) position = target;
      return true;
    },
    ...(knowsWithoutIo ? { includedPosition: () => position } : {}),
  };
  // What a read of the read model would return: the position it had reached when the read ran.
  const read = async () => {
    steps.push('read');
    return position;
  };
  return { freshness, read, steps };
}

const headAt = (head: Position | null, steps: string[]) => async () => {
  steps.push('head');
  return head;
};

describe('readAtHead', () => {
  it('answers from one read beside the head lookup when the read model already includes the head', async () => {
    const { freshness, read, steps } = readModelAt(P2);
    expect(await readAtHead(freshness, headAt(P1, steps), LOG, read)).toBe(P2);
    expect(steps).toEqual(['head', 'read']);
  });

  it('waits for the head and reads again when the read model is behind it', async () => {
    const { freshness, read, steps } = readModelAt(P1);
    const answer = await readAtHead(freshness, headAt(P2, steps), LOG, read);
    expect(answer).toBe(P2);
    expect(steps).toEqual(['head', 'read', `wait ${P2}`, 'read']);
  });

  it('waits before reading when a read model has not committed anything yet', async () => {
    const { freshness, read, steps } = readModelAt('start');
    expect(await readAtHead(freshness, headAt(P1, steps), LOG, read)).toBe(P1);
    expect(steps).toEqual(['head', 'read', `wait ${P1}`, 'read']);
  });

  it('reads after the wait, one read only, when the freshness cannot tell without I/O', async () => {
    const { freshness, read, steps } = readModelAt(P1, false);
    const answer = await readAtHead(freshness, headAt(P2, steps), LOG, read);
    expect(isAtOrAfter(answer!, P2)).toBe(true);
    expect(steps).toEqual(['head', `wait ${P2}`, 'read']);
  });

  it('reads once on an empty store', async () => {
    const { freshness, read, steps } = readModelAt('start');
    expect(await readAtHead(freshness, headAt(null, steps), LOG, read)).toBe('start');
    expect(steps).toEqual(['head', 'read']);
  });
});
