/**
 * How long the fuzz suite runs. `npm test` uses the fixed defaults, so a failure there reproduces
 * exactly; `npm run fuzz` sets FUZZ_RUNS higher and FUZZ_SEED=random, and the suite prints the seed
 * it drew so a failure found that way can be replayed with FUZZ_SEED=<seed>.
 */
export interface FuzzSettings {
  /** Requests per endpoint. */
  runs: number;
  seed: number;
  /**
   * The longest pull-request title the hostile regexes are matched against: `^(a+)+$` on a title of
   * n a's and a `!` costs a backtracking engine 2^n steps. The short run stays at 20 (a few
   * milliseconds even there); the long run goes to 28 (seconds there: a clear failure rather than a
   * hang) unless FUZZ_TITLE_LENGTH says otherwise. A linear-time engine answers either at once.
   */
  titleLength: number;
}

const DEFAULT_RUNS = 30;
const DEFAULT_SEED = 20260314;

export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const runs = env.FUZZ_RUNS ? Number(env.FUZZ_RUNS) : DEFAULT_RUNS;
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive integer`);
  const seedText = env.FUZZ_SEED ?? String(DEFAULT_SEED);
  const seed = seedText === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(seedText);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer or "random"`);
  const titleLength = env.FUZZ_TITLE_LENGTH ? Number(env.FUZZ_TITLE_LENGTH) : runs > DEFAULT_RUNS ? 28 : 20;
  if (!Number.isSafeInteger(titleLength) || titleLength < 1)
    throw new Error('FUZZ_TITLE_LENGTH must be a positive integer');
  return { runs, seed, titleLength };
}
