import { createHmac, timingSafeEqual } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { startHttpApp, type RunningHttpApp } from '@switchyard/runtime';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { gitHubFactEventTypes, repositoryStreamId } from '@switchyard/code-host/facts';
import type { Position } from '@switchyard/event-store';
import { mergeQueueStreamId } from '@switchyard/merge-queue';
import { IN_MEMORY_DATA_DIR, loadConfig } from '@switchyard/platform';
import { forgeOf } from './forge-client';
import { stormDeliveries, type StormPullRequest } from './storm-deliveries';
import { printLag, sampleLag, type Phase } from './storm-lag';
import type { StormAnswer, StormDelivery, StormJob } from './storm-sender';

/**
 * bench:engine --storm — a webhook storm on a busy queue (issue 32 §7). One repository of the
 * sandbox forge holds `prs` open pull requests; its label-driven queue merges a steady supply of
 * others (the bench keeps `inQueue` of them queued). The run has three phases, all in one process
 * and one store: a bare Fastify door receives the storm's deliveries (the baseline of the
 * acknowledgement); the queue merges with no storm (the baseline of the reaction); then the queue
 * merges while `rate` signed deliveries a second about the open pull requests reach
 * `/webhooks/github` for `seconds`. Measured from outside the product: the sender's own clock for
 * each acknowledgement, the store for every delivery's facts, the engine's code-host calls (its
 * telemetry, which records the start of every operation) after each CI verdict, and `/readyz`
 * every second for every processor's distance behind the head.
 */
export interface StormOptions {
  seconds: number;
  rate: number;
  prs: number;
  calmSeconds: number;
  baselineSeconds: number;
  ciSeconds: number;
  inQueue: number;
}

const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const SECRET = 'bench-storm-webhook-secret-0123456789';
const MERGIFY_YML = [
  'queue_rules:',
  '  - name: default',
  '    batch_size: 1',
  'merge_queue:',
  '  max_parallel_checks: 2',
  'pull_request_rules:',
  '  - name: automatic queue',
  '    conditions:',
  '      - label=ready',
  '    actions:',
  '      queue:',
  '',
].join('\n');

const out = (line = '') => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`[bench:engine --storm] ${line}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) =>
  Number.isNaN(value) ? '–' : value === Number.POSITIVE_INFINITY ? '> 10 s' : `${value.toFixed(0)} ms`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/**
 * What one phase cost this process (the service, the forge and the sender's thread): its CPU
 * time, whatever share of the shared machine it was given, and the event loop's delay p99.
 */
function meter() {
  const cpu = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  return () => {
    loop.disable();
    const { user, system } = process.cpuUsage(cpu);
    return { cpuMs: (user + system) / 1000, loopDelayP99Ms: loop.percentile(99) / 1e6 };
  };
}

function sendInWorker(job: StormJob): Promise<StormAnswer[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'storm-sender.ts'), { workerData: job });
    worker.once('message', (answers: StormAnswer[]) => {
      resolve(answers);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * The least a webhook door can do: check the HMAC signature of the raw body, parse it and answer
 * 202, with nothing stored. It runs in this process, beside the idle service, as the door does.
 */
async function bareDoor(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false, bodyLimit: 25 * 1024 * 1024 });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.post('/webhooks/github', (request, reply) => {
    const raw = request.body as Buffer;
    const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
    const given = Buffer.from(String(request.headers['x-hub-signature-256'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return reply.code(401).send({ detail: 'signature' });
    JSON.parse(raw.toString('utf8'));
    return reply.code(202).send({ status: 'recorded' });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${url}/webhooks/github`, close: () => app.close() };
}

/**
 * Keeps `inQueue` pull requests queued: opens a change and labels it `ready` whenever fewer are
 * in the queue, so CI verdicts keep coming in every phase.
 */
function feedQueue(running: RunningHttpApp, repository: string, inQueue: number) {
  const { forge, openChange } = forgeOf(running.url, ADMIN_KEY, repository);
  const labelled = new Set<number>();
  let stopped = false;
  let opened = 0;
  const finished = new Set<number>();
  let fromRevision = 0n;
  const loop = (async () => {
    while (!stopped) {
      // Only the events since the last look: the whole stream each time would cost more than the storm.
      const read = await running.storage.store.readStream(mergeQueueStreamId(repository, 'main'), {
        fromRevision,
      });
      for (const e of read.events)
        if (e.type === 'merge_queue.pull_request_merged' || e.type === 'merge_queue.pull_request_left')
          finished.add((e.data as { pullRequest: number }).pullRequest);
      fromRevision = read.revision + 1n;
      const active = [...labelled].filter((number) => !finished.has(number)).length;
      for (let i = active; i < inQueue && !stopped; i++) {
        opened += 1;
        const pull = await openChange(
          `queued-${opened}`,
          `queued/${opened}.txt`,
          `queued change ${opened}\n`,
        );
        const added = await forge('POST', `/issues/${pull.number as number}/labels`, { labels: ['ready'] });
        if (added.status !== 200) throw new Error(`label #${pull.number as number}: ${added.status}`);
        labelled.add(pull.number as number);
      }
      await pause(250);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

interface Verdict {
  at: number;
  latencyMs: number;
}

/**
 * For each start of checks, the first CI result on the commit those checks judge, and the
 * engine's next code-host call after both are known (bench:engine's measure, here with one queue
 * in the repository and its telemetry covering every call the engine makes).
 */
async function verdictLatencies(running: RunningHttpApp, repository: string): Promise<Verdict[]> {
  const store = running.storage.store;
  const queueEvents = (await store.readStream(mergeQueueStreamId(repository, 'main'))).events;
  const ciResults = new Map<string, number>();
  for (const event of (await store.readStream(repositoryStreamId(repository))).events) {
    if (event.type !== 'github.check_run_reported') continue;
    const data = event.data as { headSha: string; check: { state: string; name: string } };
    if (data.check.name !== 'ci' || !['success', 'failure'].includes(data.check.state)) continue;
    if (!ciResults.has(data.headSha)) ciResults.set(data.headSha, event.recordedAt.getTime());
  }
  const calls = running.mergeQueue!.telemetry.calls;
  const verdicts: Verdict[] = [];
  for (const started of queueEvents) {
    if (started.type !== 'merge_queue.checks_started') continue;
    const head = (started.data as { checkHeadSha?: string }).checkHeadSha;
    const ciAt = head ? ciResults.get(head) : undefined;
    if (ciAt === undefined) continue;
    const at = Math.max(ciAt, started.recordedAt.getTime());
    const next = calls.find((call) => call.at >= at);
    if (next) verdicts.push({ at, latencyMs: next.at - at });
  }
  return verdicts;
}

/** Every delivery id with at least one fact stored after `after`. */
async function storedDeliveries(running: RunningHttpApp, after: Position | 'start'): Promise<Set<string>> {
  const ids = new Set<string>();
  let from = after;
  for (;;) {
    const page = await running.storage.store.readAll({
      after: from,
      limit: 5_000,
      filter: { eventTypes: gitHubFactEventTypes },
    });
    for (const event of page.events) ids.add(String(event.metadata.deliveryId));
    if (page.events.length === 0 || page.lastPosition === from) return ids;
    from = page.lastPosition;
  }
}

async function openStormPullRequests(running: RunningHttpApp, repository: string, count: number) {
  const { openChange } = forgeOf(running.url, ADMIN_KEY, repository);
  const pulls: StormPullRequest[] = [];
  let next = 0;
  // A few at a time, as a busy team opens them: the forge serialises its writes anyway.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const i = ++next;
        const pull = await openChange(`feature-${i}`, `features/${i}.txt`, `feature ${i}\n`);
        pulls.push({ number: pull.number as number, pull });
        if (pulls.length % 100 === 0) log(`${pulls.length} pull requests open`);
      }
    }),
  );
  const snapshots = running.app.get(PullRequestSnapshots);
  for (const { number } of pulls) while (!(await snapshots.find(repository, number))) await pause(50);
  return pulls;
}

function webhookRow(name: string, answers: StormAnswer[], seconds: number, base: number | null): string {
  // Failed and timed-out deliveries count as slower than any answer (GitHub gave up on them).
  const latencies = answers.map((a) => a.latencyMs);
  const accepted = answers.filter((a) => a.status === 202).length;
  const p99 = quantile(latencies, 0.99);
  return `${name.padEnd(40)} ${`${seconds} s`.padStart(5)} ${String(answers.length).padStart(6)} ${String(accepted).padStart(6)} ${ms(quantile(latencies, 0.5)).padStart(8)} ${ms(p99).padStart(8)} ${ms(Math.max(...latencies)).padStart(8)} ${(base === null ? '1.0x' : `${(p99 / base).toFixed(1)}x`).padStart(9)}`;
}

export async function runStorm(options: StormOptions): Promise<void> {
  const postgres = Boolean(process.env.DATABASE_URL);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SWITCHYARD_DATA_DIR: IN_MEMORY_DATA_DIR,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    SWITCHYARD_ACCOUNT: 'acme',
    SWITCHYARD_ADMIN_KEY: ADMIN_KEY,
    SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET,
    SWITCHYARD_SANDBOX_CI_SECONDS: String(options.ciSeconds),
    LOG_LEVEL: 'silent',
  });
  const running = await startHttpApp(config, { role: 'all-in-one', announce: () => undefined });
  const repository = `acme/storm-${Date.now().toString(36)}`;
  try {
    const loadAtStart = load();
    const { commit } = forgeOf(running.url, ADMIN_KEY, repository);
    await commit('main', 'README.md', '# storm\n');
    await commit('main', '.mergify.yml', MERGIFY_YML);
    const setupStarted = Date.now();
    const pulls = await openStormPullRequests(running, repository, options.prs);
    await running.projections!.waitFor(
      running.projections!.names,
      await running.storage.store.headPosition(),
      600_000,
    );
    const setupSeconds = (Date.now() - setupStarted) / 1000;
    log(`${pulls.length} pull requests open and read in ${setupSeconds.toFixed(0)} s`);

    // Baseline of the acknowledgement: the same kind of deliveries, at the same rate, to a bare door.
    const bare = await bareDoor();
    const baselineAnswers = await sendInWorker({
      url: bare.url,
      secret: SECRET,
      rate: options.rate,
      deliveries: stormDeliveries({
        repository,
        pulls,
        count: options.rate * options.baselineSeconds,
        idPrefix: `baseline-${Date.now()}`,
        updatedFrom: Date.now(),
      }),
    });
    await bare.close();
    log('baseline door done');

    const stormCount = options.rate * options.seconds;
    const deliveries: StormDelivery[] = stormDeliveries({
      repository,
      pulls,
      count: stormCount,
      idPrefix: `storm-${Date.now()}`,
      // After the pull requests' own updated_at, and a millisecond apart from one another.
      updatedFrom: Date.now() + 1000,
    });

    let phase: Phase = 'calm';
    const lag = sampleLag(running, () => phase);
    const feeder = feedQueue(running, repository, options.inQueue);
    const calmStarted = Date.now();
    const endCalm = meter();
    await pause(options.calmSeconds * 1000);
    const calmCost = endCalm();
    const endStorm = meter();
    const headBeforeStorm = (await running.storage.store.headPosition()) ?? 'start';
    const stormStarted = Date.now();
    phase = 'storm';
    log(`calm phase over (load ${load()}); storm of ${stormCount} deliveries from ${stormStarted}`);
    const answers = await sendInWorker({
      url: `${running.url}/webhooks/github`,
      secret: SECRET,
      rate: options.rate,
      deliveries,
    });
    const stormEnded = Date.now();
    const stormCost = endStorm();
    phase = 'drain';
    const loadAtStormEnd = load();
    log(`storm over at ${stormEnded} (load ${loadAtStormEnd})`);
    await feeder.stop();
    const drainStarted = Date.now();
    const caughtUp = await running.projections!.waitFor(
      running.projections!.names,
      await running.storage.store.headPosition(),
      300_000,
    );
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    await pause(1500);
    await lag.stop();

    const stored = await storedDeliveries(running, headBeforeStorm);
    const lost = answers.filter((a) => !stored.has(a.id));
    const verdicts = await verdictLatencies(running, repository);
    const calm = verdicts.filter((v) => v.at >= calmStarted && v.at < stormStarted).map((v) => v.latencyMs);
    const storm = verdicts.filter((v) => v.at >= stormStarted && v.at < stormEnded).map((v) => v.latencyMs);
    const queueEvents = (await running.storage.store.readStream(mergeQueueStreamId(repository, 'main')))
      .events;
    const mergedIn = (from: number, to: number) =>
      queueEvents.filter(
        (e) =>
          e.type === 'merge_queue.pull_request_merged' &&
          e.recordedAt.getTime() >= from &&
          e.recordedAt.getTime() < to,
      ).length;
    const calls = running.mergeQueue!.telemetry.calls;
    const callsIn = (from: number, to: number) => {
      const counts = new Map<string, number>();
      for (const call of calls)
        if (call.at >= from && call.at < to)
          counts.set(call.operation, (counts.get(call.operation) ?? 0) + 1);
      return counts;
    };

    out(
      `\nbench:engine --storm — all-in-one + sandbox forge on ${postgres ? 'PostgreSQL' : 'PGlite in memory'}${process.env.REDIS_URL ? ' + Redis' : ''}, sandbox CI ${options.ciSeconds} s`,
    );
    out(
      `load average: ${loadAtStart} at start, ${loadAtStormEnd} at the storm's end (${new Date().toISOString()})`,
    );
    out(
      `${pulls.length} open pull requests in ${repository} (opened and read in ${setupSeconds.toFixed(0)} s); the queue kept ${options.inQueue} queued (batch_size 1, 2 parallel checks)`,
    );
    out(
      `\nwebhook door: ${options.rate} deliveries/s open-loop (labeled/unlabeled, check_run, check_suite, push), latency from each delivery's due moment`,
    );
    out(
      `${'door'.padEnd(40)} ${'for'.padStart(5)} ${'sent'.padStart(6)} ${'202'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'p99/base'.padStart(9)}`,
    );
    const baselineP99 = quantile(
      baselineAnswers.map((a) => a.latencyMs),
      0.99,
    );
    out(webhookRow('bare Fastify (HMAC + JSON.parse, 202)', baselineAnswers, options.baselineSeconds, null));
    out(webhookRow('/webhooks/github, queue busy', answers, options.seconds, baselineP99));
    const byAnswer = new Map<string, number>();
    for (const answer of answers)
      byAnswer.set(
        `${answer.status} ${answer.answer}`,
        (byAnswer.get(`${answer.status} ${answer.answer}`) ?? 0) + 1,
      );
    out(
      `answers: ${[...byAnswer].map(([what, n]) => `${what} × ${n}`).join(', ')}; facts stored for ${answers.length - lost.length} of ${answers.length} deliveries (${lost.length} lost${
        lost.length > 0
          ? `: ${lost
              .slice(0, 5)
              .map((a) => `${a.id} ${a.event} ${a.status}`)
              .join(', ')}`
          : ''
      })`,
    );

    const calmSeconds = (stormStarted - calmStarted) / 1000;
    const stormSeconds = (stormEnded - stormStarted) / 1000;
    out(`\nCI verdict → the engine's next code-host call`);
    out(
      `${'phase'.padEnd(24)} ${'for'.padStart(6)} ${'verdicts'.padStart(9)} ${'merged'.padStart(7)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'p99/calm'.padStart(9)}`,
    );
    const verdictRow = (
      name: string,
      values: number[],
      seconds: number,
      merged: number,
      base: number | null,
    ) =>
      out(
        `${name.padEnd(24)} ${`${seconds.toFixed(0)} s`.padStart(6)} ${String(values.length).padStart(9)} ${String(merged).padStart(7)} ${ms(quantile(values, 0.5)).padStart(8)} ${ms(quantile(values, 0.99)).padStart(8)} ${ms(Math.max(...values)).padStart(8)} ${(base === null ? '1.0x' : `${(quantile(values, 0.99) / base).toFixed(1)}x`).padStart(9)}`,
      );
    verdictRow('queue alone (baseline)', calm, calmSeconds, mergedIn(calmStarted, stormStarted), null);
    verdictRow(
      'queue in the storm',
      storm,
      stormSeconds,
      mergedIn(stormStarted, stormEnded),
      quantile(calm, 0.99),
    );
    const perSecond = (counts: Map<string, number>, seconds: number) =>
      [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([operation, n]) => `${operation} ${(n / seconds).toFixed(1)}`)
        .join(', ');
    out(
      `engine code-host calls per second, queue alone: ${perSecond(callsIn(calmStarted, stormStarted), calmSeconds)}`,
    );
    out(
      `engine code-host calls per second, in the storm: ${perSecond(callsIn(stormStarted, stormEnded), stormSeconds)}`,
    );

    out(
      `\nthis process (service, forge and sender): CPU ${(calmCost.cpuMs / calmSeconds).toFixed(0)} ms/s with the queue alone, ${(stormCost.cpuMs / stormSeconds).toFixed(0)} ms/s in the storm, ${(stormCost.cpuMs / answers.length).toFixed(1)} ms per delivery with the queue's own work (at most ${(1000 / (stormCost.cpuMs / answers.length)).toFixed(0)} deliveries/s on one core); event-loop delay p99 ${ms(calmCost.loopDelayP99Ms)} alone, ${ms(stormCost.loopDelayP99Ms)} in the storm`,
    );

    const steepest = printLag(lag.samples, stormStarted, stormEnded, caughtUp, drainSeconds);

    const webhookP99 = quantile(
      answers.map((a) => a.latencyMs),
      0.99,
    );
    const verdictP99 = quantile(storm, 0.99);
    out(
      `\ngoals: webhook p99 ≤ 1000 ms: ${ms(webhookP99)} ${webhookP99 <= 1000 ? 'met' : 'MISSED'}; none lost: ${lost.length === 0 ? 'met' : `MISSED (${lost.length})`}; verdict → call p99 ≤ 250 ms in the storm: ${ms(verdictP99)} ${verdictP99 <= 250 ? 'met' : 'MISSED'}; no lag growing through the storm: ${steepest.trend <= 1 ? 'met' : 'MISSED'} (steepest over its second half ${steepest.name} ${steepest.trend >= 0 ? '+' : ''}${steepest.trend.toFixed(1)} events/s; ${caughtUp ? `all caught up ${drainSeconds.toFixed(1)} s after it` : 'NOT caught up within 300 s after it'})`,
    );
  } finally {
    await running.close();
  }
}
