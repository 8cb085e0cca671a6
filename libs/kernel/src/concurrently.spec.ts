import { forEachConcurrently } from './concurrently';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('forEachConcurrently', () => {
  it('runs every item, never more than `concurrency` at once, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachConcurrently([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('rejects on the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    const run = forEachConcurrently([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 2) throw new Error('item 2 failed');
    });
    await expect(run).rejects.toThrow('item 2 failed');
    await tick();
    await tick();
    expect(started).toEqual([1, 2, 3]);
  });

  it('does nothing for no items', async () => {
    const work = jest.fn();
    await forEachConcurrently([], 3, work);
    expect(work).not.toHaveBeenCalled();
  });
});
