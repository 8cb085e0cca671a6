import { BatchedCalls } from './batched-calls';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedCalls', () => {
  it('serves the calls of one turn with one flush, answering each in order', async () => {
    const flushes: number[][] = [];
    const calls = new BatchedCalls<number, number>(async (items) => {
      flushes.push([...items]);
      return items.map((item) => item * 10);
    });
    const answers = await Promise.all([calls.call(1), calls.call(2), calls.call(3)]);
    expect(answers).toEqual([10, 20, 30]);
    expect(flushes).toEqual([[1, 2, 3]]);
  });

  it('holds calls made while a flush is in flight for the next flush', async () => {
    const flushes: number[][] = [];
    let release!: () => void;
    const calls = new BatchedCalls<number, number>(async (items) => {
      flushes.push([...items]);
      if (flushes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => item);
    });
    const first = calls.call(1);
    await tick();
    const later = [calls.call(2), calls.call(3)];
    await tick();
    expect(flushes).toEqual([[1]]);
    release();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 3]);
    expect(flushes).toEqual([[1], [2, 3]]);
  });

  it('rejects every call of a failed flush, and serves the next batch afresh', async () => {
    let fail = true;
    const calls = new BatchedCalls<number, number>(async (items) => {
      if (fail) throw new Error('database unavailable');
      return items.map((item) => item);
    });
    const failed = [calls.call(1), calls.call(2)];
    await expect(Promise.all(failed)).rejects.toThrow('database unavailable');
    await expect(failed[1]).rejects.toThrow('database unavailable');
    fail = false;
    expect(await calls.call(3)).toBe(3);
  });
});
