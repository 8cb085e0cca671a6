import { Random } from '../testing/queue-workload';

export { Random };

/** Exponential inter-arrival time (ms) for a Poisson process of `perHour` events an hour. */
export const exponentialGapMs = (random: Random, perHour: number): number =>
  (-Math.log(1 - random.next()) * 3_600_000) / perHour;

/** A standard normal draw (Box–Muller). */
export const normal = (random: Random): number => {
  const u = 1 - random.next();
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
};
