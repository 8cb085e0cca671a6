import { startHttpApp, type RunningHttpApp } from '@switchyard/runtime';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { repositoryStreamId } from '@switchyard/code-host/facts';
import { IN_MEMORY_DATA_DIR, loadConfig } from '@switchyard/platform';
import { mergeQueueStreamId } from '@switchyard/merge-queue';
import { forgeOf } from './engine/forge-client';
import { runStorm } from './engine/storm';

/**
 * bench:engine — the merge queue on the all-in-one service and the sandbox forge (PGlite in
 * memory, sandbox CI of 0 s). Each scenario opens pull requests in a repository of its own, queues
 * them with `@mergify queue` comments and waits until all of them merged. Measures (1) the time
 * from a CI result the queue waits for reaching Switchyard (the check_run fact recorded) to the
 * engine's next code-host call, against a baseline measured in the same run: one bare REST read of
 * the sandbox forge; (2) the REST calls and writes the engine's code host sent, per merged pull
 * request, all writes and those that create content. Goals: p99 ≤ 250 ms, ≤ 25 calls and ≤ 3
 * content-creating writes per merged pull request.
 *
 * With `--storm` it runs a webhook storm on a busy queue instead (see engine/storm.ts):
 * `npm run bench:engine -- --storm [--seconds 60] [--rate 50] [--prs 500]`.
 */
/**
 * The fewest content-creating writes per merged pull request a configuration can make over
 * GitHub's REST API with status comments on (`status_comments: all`, the default: one `comment`
 * per pull request), printed beside the measured column so a reader sees how far above the floor
 * the engine is. A draft batch of b pull requests costs its branch (createBranch), one merge
 * commit per pull request (mergeIntoBranch) and the draft (createDraftPullRequest): b + 2.
 * - per-PR merge methods (merge, squash, rebase) on drafts: each pull request is then merged on
 *   its own (mergePullRequest) and commented, 2 + (b + 2)/b: above 3 for every b;
 * - in place: the merge and the comment, plus one updatePullRequestBranch for every pull request
 *   that is behind the base when its turn comes; here all are opened on the same main, so all
 *   but the first: 2 + (n - 1)/n;
 * - `merge-batch`: the batch branch is merged into the base (one mergeIntoBranch per batch: GitHub
 *   will not merge the draft itself), each pull request only has its comment: 1 + (b + 3)/b;
 * - `fast-forward`: the base ref is moved to the tested draft head (updateBranch), a write this
 *   bench does not count as content-creating (not in CONTENT_CREATING): 1 + (b + 2)/b.
 */
const floor = {
  inPlace: (n: number) => ({ formula: `2 + ${n - 1}/${n}`, value: 2 + (n - 1) / n }),
  perPullRequestMerge: (b: number) => ({ formula: `2 + ${b + 2}/${b}`, value: 2 + (b + 2) / b }),
  mergeBatch: (b: number) => ({ formula: `1 + ${b + 3}/${b}`, value: 1 + (b + 3) / b }),
  fastForward: (b: number) => ({ formula: `1 + ${b + 2}/${b}`, value: 1 + (b + 2) / b }),
};
const SCENARIOS = [
  {
    name: 'in place (serial, batch_size 1)',
    prs: 6,
    yml: 'queue_rules:\n  - name: default\n    batch_size: 1\nmerge_queue:\n  max_parallel_checks: 1\n',
    floor: floor.inPlace(6),
  },
  {
    name: 'speculative drafts (batch_size 1, 5 parallel)',
    prs: 6,
    yml: 'queue_rules:\n  - name: default\n    batch_size: 1\n',
    floor: floor.perPullRequestMerge(1),
  },
  {
    name: 'batches (batch_size 4, 3 parallel)',
    prs: 12,
    yml: 'queue_rules:\n  - name: default\n    batch_size: 4\n    batch_max_wait_time: 1 s\nmerge_queue:\n  max_parallel_checks: 3\n',
    floor: floor.perPullRequestMerge(4),
  },
  {
    name: 'fast-forward (batch_size 4, 3 parallel)',
    prs: 12,
    yml: 'queue_rules:\n  - name: default\n    batch_size: 4\n    batch_max_wait_time: 1 s\n    merge_method: fast-forward\nmerge_queue:\n  max_parallel_checks: 3\n',
    floor: floor.fastForward(4),
  },
  {
    name: 'merge-batch (batch_size 4, 3 parallel)',
    prs: 12,
    yml: 'queue_rules:\n  - name: default\n    batch_size: 4\n    batch_max_wait_time: 1 s\n    merge_method: merge-batch\nmerge_queue:\n  max_parallel_checks: 3\n',
    floor: floor.mergeBatch(4),
  },
];
/**
 * The operations whose writes create content in GitHub's sense (commits, branches, pull requests,
 * merges, comments): the secondary limit of 500 an hour counts these (performance-anchors §1.1.10,
 * goal G7). Labels, check runs, closing a draft and deleting its branch change state without
 * creating content; they are still counted in the writes column. So is `updateComment`: the queue
 * keeps one status comment per pull request and edits it as the state moves, and GitHub counts
 * the comment's creation (`comment`, here) as content, not its edits.
 */
const CONTENT_CREATING = new Set([
  'createBranch',
  'mergeIntoBranch',
  'createDraftPullRequest',
  'mergePullRequest',
  'updatePullRequestBranch',
  'comment',
]);
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const TIMEOUT_MS = Number(process.env.BENCH_ENGINE_TIMEOUT_MS ?? '600000');
const log = (line: string) => process.stderr.write(`[bench:engine] ${line}\n`);

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ScenarioResult {
  seconds: number;
  latencies: number[];
  calls: number;
  writes: number;
  contentWrites: number;
  byOperation: Record<string, { calls: number; writes: number }>;
}

async function runScenario(
  running: RunningHttpApp,
  repository: string,
  scenario: (typeof SCENARIOS)[number],
): Promise<ScenarioResult> {
  const { forge, commit } = forgeOf(running.url, ADMIN_KEY, repository);
  await commit('main', 'README.md', '# bench\n');
  await commit('main', '.mergify.yml', scenario.yml);
  const numbers: number[] = [];
  for (let i = 1; i <= scenario.prs; i++) {
    const main = await forge('GET', '/git/ref/heads/main');
    await forge('POST', '/git/refs', { ref: `refs/heads/change-${i}`, sha: main.body.object.sha });
    await commit(`change-${i}`, `changes/${i}.txt`, `change ${i}\n`);
    const opened = await forge('POST', '/pulls', { title: `change ${i}`, head: `change-${i}`, base: 'main' });
    if (opened.status !== 201)
      throw new Error(`pull request ${i}: ${opened.status} ${JSON.stringify(opened.body)}`);
    numbers.push(opened.body.number as number);
  }
  const telemetry = running.mergeQueue!.telemetry;
  const store = running.storage.store;
  // Let the opening's own reactions (snapshots, configuration reads) settle before counting.
  const snapshots = running.app.get(PullRequestSnapshots);
  for (const number of numbers) while (!(await snapshots.find(repository, number))) await pause(20);
  const before = telemetry.usage;
  const started = Date.now();
  for (const number of numbers) await forge('POST', `/issues/${number}/comments`, { body: '@mergify queue' });

  const queueEvents = async () => (await store.readStream(mergeQueueStreamId(repository, 'main'))).events;
  const deadline = Date.now() + TIMEOUT_MS;
  while (
    (await queueEvents()).filter((e) => e.type === 'merge_queue.pull_request_merged').length < scenario.prs
  ) {
    if (Date.now() > deadline) {
      const types = (await queueEvents()).map((e) => e.type).slice(-20);
      throw new Error(
        `${scenario.name}: the queue did not drain in time; last queue events: ${types.join(', ')}`,
      );
    }
    // A timer turn between looks: in-memory PGlite answers on microtasks, and a loop that never
    // sleeps starves the forge's webhook deliveries into this same process.
    await pause(20);
  }
  const seconds = (Date.now() - started) / 1000;
  // The labels and check runs that follow the last merges are part of the bill: count them too.
  const head = await store.headPosition();
  await running.projections!.waitFor(
    ['merge_queue.intake', 'merge_queue.effects', 'merge_queue.status_comments'],
    head,
    60_000,
  );
  const after = telemetry.usage;

  // Only the verdicts the queue waits for: for each start of checks, the first CI result on the
  // commit those checks judge (a draft's head, or the pull request's own head in place). The
  // reaction starts when both are known: a pull request checked in place may have had its
  // verdict before it was queued.
  const facts = (await store.readStream(repositoryStreamId(repository))).events;
  const latencies: number[] = [];
  for (const started of await queueEvents()) {
    if (started.type !== 'merge_queue.checks_started') continue;
    const head = (started.data as { checkHeadSha?: string }).checkHeadSha;
    const verdict = facts.find((e) => {
      const data = e.data as { headSha: string; check: { state: string; name: string } };
      return (
        e.type === 'github.check_run_reported' &&
        data.headSha === head &&
        data.check.name === 'ci' &&
        ['success', 'failure'].includes(data.check.state)
      );
    });
    if (!verdict) continue;
    const at = Math.max(verdict.recordedAt.getTime(), started.recordedAt.getTime());
    const next = telemetry.calls.find((call) => call.at >= at);
    if (next) latencies.push(next.at - at);
  }
  const byOperation: ScenarioResult['byOperation'] = {};
  for (const [operation, counts] of Object.entries(after.byOperation)) {
    const was = before.byOperation[operation] ?? { calls: 0, writes: 0 };
    if (counts.calls > was.calls)
      byOperation[operation] = { calls: counts.calls - was.calls, writes: counts.writes - was.writes };
  }
  const contentWrites = Object.entries(byOperation)
    .filter(([operation]) => CONTENT_CREATING.has(operation))
    .reduce((sum, [, counts]) => sum + counts.writes, 0);
  return {
    seconds,
    latencies,
    contentWrites: contentWrites / scenario.prs,
    calls: (after.calls - before.calls) / scenario.prs,
    writes: (after.writes - before.writes) / scenario.prs,
    byOperation,
  };
}

async function main(): Promise<void> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SWITCHYARD_DATA_DIR: IN_MEMORY_DATA_DIR,
    SWITCHYARD_ACCOUNT: 'acme',
    SWITCHYARD_ADMIN_KEY: ADMIN_KEY,
    SWITCHYARD_SANDBOX_CI_SECONDS: '0',
    LOG_LEVEL: 'silent',
  });
  const running: RunningHttpApp = await startHttpApp(config, {
    role: 'all-in-one',
    announce: () => undefined,
  });
  try {
    // Baseline: one bare REST read of the forge, the floor under any reaction of the engine.
    const { forge, commit } = forgeOf(running.url, ADMIN_KEY, 'acme/bench-engine-baseline');
    await commit('main', 'README.md', '# baseline\n');
    const baseline: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await forge('GET', '/git/ref/heads/main');
      baseline.push(performance.now() - started);
    }
    const base = quantile(baseline, 0.5);

    process.stdout.write('\nbench:engine — all-in-one + sandbox forge, sandbox CI 0 s (under load)\n');
    process.stdout.write(`baseline: one bare forge REST read, p50 ${base.toFixed(1)} ms\n\n`);
    process.stdout.write(
      `${'scenario'.padEnd(48)} ${'PRs'.padStart(4)} ${'drained'.padStart(8)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'p99/base'.padStart(9)} ${'calls/PR'.padStart(9)} ${'writes/PR'.padStart(10)} ${'content writes/PR'.padStart(18)}\n`,
    );
    const details: string[] = [];
    for (const [index, scenario] of SCENARIOS.entries()) {
      const result = await runScenario(running, `acme/bench-engine-${index + 1}`, scenario);
      const p99 = quantile(result.latencies, 0.99);
      process.stdout.write(
        `${scenario.name.padEnd(48)} ${String(scenario.prs).padStart(4)} ${`${result.seconds.toFixed(1)} s`.padStart(8)} ${`${quantile(result.latencies, 0.5).toFixed(0)} ms`.padStart(7)} ${`${p99.toFixed(0)} ms`.padStart(7)} ${`${(p99 / base).toFixed(1)}x`.padStart(9)} ${result.calls.toFixed(1).padStart(9)} ${result.writes.toFixed(1).padStart(10)} ${result.contentWrites.toFixed(1).padStart(18)}\n`,
      );
      details.push(
        `${scenario.name} (${result.latencies.length} CI results):\n` +
          Object.entries(result.byOperation)
            .map(
              ([operation, counts]) =>
                `  ${operation.padEnd(28)} ${String(counts.calls).padStart(5)} calls ${String(counts.writes).padStart(5)} writes`,
            )
            .join('\n'),
      );
    }
    process.stdout.write(
      '\ngoals: p99 ≤ 250 ms, ≤ 25 calls and ≤ 3 content-creating writes per merged pull request\n',
    );
    process.stdout.write(
      `REST floor, content-creating writes per merged pull request (status comments on): ${SCENARIOS.map(
        (scenario) =>
          `${scenario.name.replace(/ \(.*/, '')} ${scenario.floor.formula} = ${scenario.floor.value.toFixed(2)}`,
      ).join('; ')}\n\n`,
    );
    process.stdout.write(`${details.join('\n')}\n`);
    log('done');
  } finally {
    await running.close();
  }
}

/** `--name value` from the command line, as a positive number, else `fallback`. */
function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

function storm(): Promise<void> {
  const seconds = option('seconds', 60);
  return runStorm({
    seconds,
    rate: option('rate', 50),
    prs: option('prs', 500),
    calmSeconds: option('calm-seconds', Math.min(30, seconds)),
    baselineSeconds: option('baseline-seconds', Math.min(15, seconds)),
    ciSeconds: option('ci-seconds', 2),
    inQueue: option('in-queue', 4),
  });
}

(process.argv.includes('--storm') ? storm() : main()).catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
