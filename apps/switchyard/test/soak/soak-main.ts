/**
 * `npm run soak`: seeded scenarios (a generated `.mergify.yml` and the lives of its pull requests)
 * played over HTTP against the real service with the sandbox forge, each checked against the
 * soak's invariants (`invariants.ts`). All-in-one on the embedded store and, when DATABASE_URL and
 * REDIS_URL are set, also as separate api, projector and two engine processes on PostgreSQL and
 * Redis, with a kill -9 of an engine in the middle of every run.
 *
 *   SOAK_MINUTES=10        how long to keep drawing seeds (shared between the targets)
 *   SOAK_SEED=<seed>       replay one seed (with SOAK_TARGET=all-in-one|split)
 *   SOAK_SCENARIOS=short   the short variant's scenarios (what `npm test` runs)
 */
import { randomBytes } from 'node:crypto';
import { FULL_SCENARIOS, SHORT_SCENARIOS } from './scenario';
import { soakSeed, type SeedOutcome } from './soak';
import { allInOneTarget, splitTarget, type OpenTarget } from './soak-targets';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const scenarios = process.env.SOAK_SCENARIOS === 'short' ? 'short' : 'full';
  const options = scenarios === 'short' ? SHORT_SCENARIOS : FULL_SCENARIOS;
  const split = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  const wanted = process.env.SOAK_TARGET;
  const targets: Array<() => Promise<OpenTarget>> = [];
  if (!wanted || wanted === 'all-in-one') targets.push(allInOneTarget);
  if ((!wanted && split) || wanted === 'split') {
    if (!split) throw new Error('SOAK_TARGET=split needs DATABASE_URL and REDIS_URL');
    targets.push(() => splitTarget(process.env.DATABASE_URL!, process.env.REDIS_URL!));
  }
  const outcomes: SeedOutcome[] = [];
  const replay = process.env.SOAK_SEED;
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  const runTag = randomBytes(3).toString('hex');
  for (const [position, open] of targets.entries()) {
    const target = await open();
    log(`soak on ${target.name} (${scenarios} scenarios)`);
    try {
      if (replay) {
        outcomes.push(await soakSeed(target, replay, options, scenarios, log));
        continue;
      }
      // Each target gets its share of the time; a seed already started runs to its end.
      const until = Date.now() + (minutes * 60_000) / (targets.length - position);
      for (let index = 1; Date.now() < until; index++)
        outcomes.push(
          await soakSeed(
            target,
            `${runTag}-${target.name === 'split' ? 's' : 'a'}${index}`,
            options,
            scenarios,
            log,
          ),
        );
    } finally {
      await target.close();
    }
  }
  const clean = outcomes.filter((o) => o.violations.length === 0);
  const configurations = new Set(clean.map((o) => o.configuration)).size;
  log(
    `soak: ${clean.length} of ${outcomes.length} seeds clean (${configurations} distinct configurations, ` +
      `${clean.reduce((sum, o) => sum + o.pulls, 0)} pull requests, ${clean.reduce((sum, o) => sum + o.merged, 0)} merged)`,
  );
  for (const failed of outcomes.filter((o) => o.violations.length > 0))
    log(`  failed: SOAK_SEED=${failed.seed} SOAK_TARGET=${failed.target}: ${failed.violations[0]}`);
  return clean.length === outcomes.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
