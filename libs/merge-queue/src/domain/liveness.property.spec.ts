import { validateConfiguration } from '@switchyard/mergify-config';
import fc from 'fast-check';
import { queuePolicyFromConfiguration } from '../application/policy-from-configuration';
import { runWorld, type LifeAction, type PullRequestLife, type WorldRecord } from '../testing/queue-world';
import { holdsRulesBack, needsCommand } from './requeue';

/**
 * The engine's liveness guarantees (docs/queue-behaviour.md, "Liveness"), as properties of the
 * intake decider, the queue decider, the planner and the timer's decision, run together on a
 * virtual clock (testing/queue-world.ts) over generated configurations and pull-request lives.
 */
const SEED = 20261128;
const TIMER_MS = 1000;

interface Scenario {
  batchSize: number;
  batchMaxWaitSeconds: number;
  maxParallelChecks: number;
  mode: 'serial' | 'isolated';
  skipIntermediateResults: boolean;
  retries: number;
  checksTimeoutSeconds: number | null;
  ciSeconds: number;
  stuckRuns: number[];
  lives: PullRequestLife[];
}

const later = fc.record({
  after: fc.integer({ min: 1, max: 900 }),
  action: fc.constantFrom<LifeAction>(
    'push_fix',
    'push_fix',
    'comment_requeue',
    'comment_queue',
    'comment_dequeue',
    'remove_label',
    'add_label',
  ),
});

const lives = fc
  .array(
    fc.record({
      opensAfter: fc.integer({ min: 0, max: 120 }),
      broken: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      via: fc.constantFrom<'label' | 'command'>('label', 'label', 'label', 'command'),
      later: fc.array(later, { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .map((drawn) =>
    drawn.map((life, index): PullRequestLife => ({
      number: index + 1,
      opensAt: life.opensAfter * 1000,
      broken: life.broken,
      via: life.via,
      later: life.later.map((step) => ({ at: (life.opensAfter + step.after) * 1000, action: step.action })),
    })),
  );

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    batchSize: fc.integer({ min: 1, max: 4 }),
    batchMaxWaitSeconds: fc.constantFrom(0, 1, 2, 5, 30),
    maxParallelChecks: fc.integer({ min: 1, max: 3 }),
    mode: fc.constantFrom<'serial' | 'isolated'>('serial', 'serial', 'isolated'),
    skipIntermediateResults: fc.boolean(),
    retries: fc.integer({ min: 0, max: 1 }),
    checksTimeoutSeconds: fc.option(fc.integer({ min: 60, max: 120 }), { nil: null }),
    ciSeconds: fc.integer({ min: 1, max: 50 }),
    stuckRuns: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
    lives,
  })
  .map((s) => ({
    ...s,
    skipIntermediateResults: s.mode === 'serial' && s.skipIntermediateResults,
    // CI that never answers is only a liveness question when a timeout ends it.
    stuckRuns: s.checksTimeoutSeconds === null ? [] : s.stuckRuns,
  }));

const yamlOf = (s: Scenario): string =>
  [
    'queue_rules:',
    '  - name: default',
    `    batch_size: ${s.batchSize}`,
    `    batch_max_wait_time: ${s.batchMaxWaitSeconds} s`,
    `    max_checks_retries: ${s.retries}`,
    ...(s.checksTimeoutSeconds === null ? [] : [`    checks_timeout: ${s.checksTimeoutSeconds} s`]),
    'merge_queue:',
    `  mode: ${s.mode}`,
    `  max_parallel_checks: ${s.maxParallelChecks}`,
    `  skip_intermediate_results: ${s.skipIntermediateResults}`,
    'pull_request_rules:',
    '  - name: automatic queue',
    '    conditions: [label=ready]',
    '    actions:',
    '      queue:',
  ].join('\n');

/**
 * The longest a stay may last (docs/queue-behaviour.md, "Liveness"), in ms, for a pull request that
 * found `ahead` pull requests queued when it entered:
 *   W + Δ + (ahead + 1) · b · (⌈log₂ b⌉ + 1) · R,   R = (r + 1) · C' · (skip ? 2 : 1)
 * with C' = C, or max(C, T) + Δ when a run can go unanswered until its checks timeout T.
 */
export function stayBoundMs(s: Scenario, ahead: number): number {
  const run =
    s.stuckRuns.length > 0
      ? Math.max(s.ciSeconds, s.checksTimeoutSeconds!) * 1000 + TIMER_MS
      : s.ciSeconds * 1000;
  const round = (s.retries + 1) * run * (s.skipIntermediateResults ? 2 : 1);
  const rounds = (ahead + 1) * s.batchSize * (Math.ceil(Math.log2(s.batchSize)) + 1);
  return s.batchMaxWaitSeconds * 1000 + TIMER_MS + rounds * round;
}

function play(s: Scenario): WorldRecord {
  const validation = validateConfiguration(yamlOf(s), new Date('2026-11-28T00:00:00Z'));
  if (!validation.valid) throw new Error(`generated an invalid configuration:\n${yamlOf(s)}`);
  const lastFact = Math.max(
    ...s.lives.flatMap((life) => [life.opensAt, ...life.later.map((step) => step.at)]),
  );
  return runWorld(
    {
      configuration: validation.configuration,
      policy: queuePolicyFromConfiguration(validation.configuration),
      lives: s.lives,
      ciMs: s.ciSeconds * 1000,
      stuckRuns: new Set(s.stuckRuns),
      timerMs: TIMER_MS,
    },
    // Long enough for every stay that could still begin to end within its bound, and more.
    { until: lastFact + 2 * stayBoundMs(s, s.lives.length) },
  );
}

const parameters = {
  seed: Number(process.env.LIVENESS_SEED ?? SEED),
  numRuns: Number(process.env.LIVENESS_RUNS ?? 150),
};

describe('merge queue liveness (intake + decider + planner + timer on a virtual clock)', () => {
  it('every stay ends, merged or dequeued with a reason, within the bound the configuration gives', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const world = play(s);
        for (const stay of world.stays) {
          const end = stay.leftAt ?? world.endedAt;
          const bound = stayBoundMs(s, stay.queuedAhead);
          if (end - stay.enteredAt > bound)
            throw new Error(
              `#${stay.pullRequest} entered at ${stay.enteredAt} ms behind ${stay.queuedAhead} and ` +
                `${stay.leftAt === null ? 'is still queued' : `left at ${stay.leftAt} ms`}: over ${bound} ms`,
            );
          if (stay.leftAt !== null && !stay.merged && stay.code === null)
            throw new Error(`#${stay.pullRequest} left without a reason`);
        }
      }),
      parameters,
    );
  });

  it('no pull request is queued again by a rule after a failure without a new head or a command', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const world = play(s);
        for (const [index, stay] of world.stays.entries()) {
          const before = world.stays.slice(0, index).findLast((p) => p.pullRequest === stay.pullRequest);
          if (!before?.code || !holdsRulesBack(before.code)) continue;
          const commanded = world.commands.some(
            (c) => c.pullRequest === stay.pullRequest && c.at >= before.leftAt! && c.at <= stay.enteredAt,
          );
          const change = commanded || (!needsCommand(before.code) && stay.headSha !== before.leftHeadSha);
          if (!change)
            throw new Error(
              `#${stay.pullRequest} left with ${before.code} at ${before.leftAt} ms and entered again at ` +
                `${stay.enteredAt} ms (${stay.trigger}) with nothing changed`,
            );
        }
      }),
      parameters,
    );
  });

  it('no batch waits past its batch_max_start_at while a slot is free, and the timer leaves nothing due', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const world = play(s);
        expect(world.overdueBatches).toEqual([]);
        expect(world.unsettledVisits).toEqual([]);
      }),
      parameters,
    );
  });

  it('a pull request a queue rule admits, and nothing holds back, enters in the intake cycle that sees it', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        expect(play(s).intakeMisses).toEqual([]);
      }),
      parameters,
    );
  });
});
