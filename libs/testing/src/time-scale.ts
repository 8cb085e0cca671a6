import { cpus, loadavg } from 'node:os';

/**
 * How much longer than on an idle machine a test may wait before calling something a hang. Waits
 * in tests only catch hangs (no test asserts a duration), and on a busy machine, with another
 * suite beside this one, an honest wait takes several times longer: the factor is the run queue
 * per core when the test file starts (1 on an idle machine, at most 8), or
 * SWITCHYARD_TEST_TIME_SCALE when set.
 */
export function testTimeScale(): number {
  const chosen = Number(process.env.SWITCHYARD_TEST_TIME_SCALE);
  if (Number.isFinite(chosen) && chosen > 0) return chosen;
  const perCore = loadavg()[0]! / Math.max(1, cpus().length);
  return Math.min(8, Math.max(1, perCore));
}

/** A hang-catching wait of `ms` on an idle machine, stretched by the machine's load. */
export const scaledWait = (ms: number): number => Math.round(ms * testTimeScale());
