import {
  bestFixedBatch,
  binaryEntropy,
  informationThroughput,
  mergifySplitBatch,
} from './batch-split-bounds';
import { halvingBatch } from './closed-forms';

describe('ceilings of batch-and-split policies', () => {
  it('the information bound: 3.84 merged PR/h at p = 0.10 and T = 30 min (performance-anchors §1.2.6)', () => {
    expect(binaryEntropy(0.1)).toBeCloseTo(0.469, 3);
    expect(informationThroughput(0.1, 0.5)).toBeCloseTo(3.84, 2);
    expect(informationThroughput(0.05, 0.5)).toBeCloseTo(6.63, 2);
    expect(informationThroughput(0.02, 0.5)).toBeCloseTo(13.9, 1);
    expect(informationThroughput(0.1, 0.5, 5)).toBeCloseTo(5 * 3.838, 2);
  });

  it('a batch of 2 by hand: check both; on a failure check the first, the second goes back to the queue', () => {
    const q = 0.9;
    // Merges per cycle 2q² + (1 − q²)·q/(1 + q); runs 1 + (1 − q²).
    const perRun = (2 * q * q + (1 - q * q) * (q / (1 + q))) / (2 - q * q);
    expect(bestFixedBatch(2, 0.1, 0.5).mergesPerRun).toBeCloseTo(perRun, 9);
    expect(mergifySplitBatch(2, 0.1, 0.5).mergesPerRun).toBeCloseTo(perRun, 9);
  });

  it('without failures a batch of b merges b per run', () => {
    expect(bestFixedBatch(8, 0, 0.5)).toEqual({ throughput: 16, mergesPerRun: 8, runsPerMerged: 0.125 });
  });

  it.each([0.02, 0.05, 0.1, 0.2, 0.4])(
    'p = %s: the engine split ≤ the best split of 8 ≤ the information bound; bors halving is below the best',
    (p) => {
      const best = bestFixedBatch(8, p, 0.5).throughput;
      expect(mergifySplitBatch(8, p, 0.5).throughput).toBeLessThanOrEqual(best + 1e-9);
      expect(best).toBeLessThan(informationThroughput(p, 0.5));
      expect(halvingBatch(8, p, 0.5).throughput).toBeLessThan(best);
    },
  );

  it('at p = 0.10 the best split of 8 comes within 2 % of the information bound, and the engine split within 3 % of the best', () => {
    const best = bestFixedBatch(8, 0.1, 0.5);
    expect(best.throughput / informationThroughput(0.1, 0.5)).toBeGreaterThan(0.98);
    expect(mergifySplitBatch(8, 0.1, 0.5).throughput / best.throughput).toBeGreaterThan(0.97);
  });
});
