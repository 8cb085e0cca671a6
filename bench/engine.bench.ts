import { startHttpApp, type RunningHttpApp } from '@switchyard/app';
import { repositoryStreamId } from '@switchyard/code-host/webhooks';
import { IN_MEMORY_DATA_DIR, loadConfig } from '@switchyard/platform';
import { mergeQueueStreamId } from '@switchyard/merge-queue';

/**
 * bench:engine — the merge queue on the all-in-one service and the sandbox forge (PGlite in
 * memory, sandbox CI of 0 s): BENCH_ENGINE_PRS (default 6) pull requests queued with
 * `@mergify queue`, batch_size 1. Measures (1) the time from a CI result reaching Switchyard (the
 * check_run fact recorded) to the engine's next code-host call, against a baseline measured in the
 * same run: one bare REST read of the sandbox forge; (2) the engine's REST calls and writes per
 * merged pull request (every call the intake and effects reactors made). Goals: p99 ≤ 250 ms,
 * ≤ 25 calls and ≤ 3 writes per merged pull request.
 */
const PRS = Number(process.env.BENCH_ENGINE_PRS ?? '6');
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const REPOSITORY = 'acme/bench-engine';
const log = (line: string) => process.stderr.write(`[bench:engine] ${line}\n`);

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};

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
    const forge = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${running.url}/sandbox/github/repos/${REPOSITORY}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub shapes, read field by field
      return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
    };
    const commit = async (branch: string, path: string, text: string) => {
      const put = await forge('PUT', `/contents/${path}`, {
        message: `add ${path}`,
        content: Buffer.from(text).toString('base64'),
        branch,
      });
      if (put.status !== 201) throw new Error(`commit ${path}: ${put.status}`);
    };
    await commit('main', 'README.md', '# bench\n');
    await commit('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');

    // Baseline: one bare REST read of the forge, the floor under any reaction of the engine.
    const baseline: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      await forge('GET', '/git/ref/heads/main');
      baseline.push(performance.now() - started);
    }

    const numbers: number[] = [];
    for (let i = 1; i <= PRS; i++) {
      const main = await forge('GET', '/git/ref/heads/main');
      await forge('POST', '/git/refs', { ref: `refs/heads/change-${i}`, sha: main.body.object.sha });
      await commit(`change-${i}`, `changes/${i}.txt`, `change ${i}\n`);
      const opened = await forge('POST', '/pulls', {
        title: `change ${i}`,
        head: `change-${i}`,
        base: 'main',
      });
      if (opened.status !== 201)
        throw new Error(`pull request ${i}: ${opened.status} ${JSON.stringify(opened.body)}`);
      numbers.push(opened.body.number as number);
    }
    const telemetry = running.mergeQueue!.telemetry;
    const before = { calls: telemetry.usage.calls, writes: telemetry.usage.writes };
    const started = Date.now();
    for (const number of numbers)
      await forge('POST', `/issues/${number}/comments`, { body: '@mergify queue' });

    const store = running.storage.store;
    const merged = async () =>
      (await store.readStream(mergeQueueStreamId(REPOSITORY, 'main'))).events.filter(
        (e) => e.type === 'merge_queue.pull_request_merged',
      ).length;
    const deadline = Date.now() + Number(process.env.BENCH_ENGINE_TIMEOUT_MS ?? '600000');
    while ((await merged()) < PRS) {
      if (Date.now() > deadline) {
        const queue = (await store.readStream(mergeQueueStreamId(REPOSITORY, 'main'))).events.map(
          (e) => e.type,
        );
        const facts = (await store.readStream(repositoryStreamId(REPOSITORY))).events.map((e) => e.type);
        throw new Error(
          `the queue did not drain in time; queue: ${queue.join(', ')}; repository facts: ${facts.join(', ')}`,
        );
      }
      await running.projections!.waitFor(['merge_queue.effects'], await store.headPosition(), 1_000);
      // A timer turn between looks: in-memory PGlite answers on microtasks, and a loop that never
      // sleeps starves the forge's webhook deliveries into this same process.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (Date.now() - started) / 1000;

    const facts = (await store.readStream(repositoryStreamId(REPOSITORY))).events.filter(
      (e) =>
        e.type === 'github.check_run_reported' &&
        ['success', 'failure'].includes((e.data as { check: { state: string } }).check.state) &&
        (e.data as { check: { name: string } }).check.name === 'ci',
    );
    const latencies: number[] = [];
    for (const fact of facts) {
      const at = fact.recordedAt.getTime();
      const next = telemetry.calls.find((call) => call.at >= at);
      if (next) latencies.push(next.at - at);
    }
    const calls = (telemetry.usage.calls - before.calls) / PRS;
    const writes = (telemetry.usage.writes - before.writes) / PRS;
    const p99 = quantile(latencies, 0.99);
    const base = quantile(baseline, 0.5);
    const row = (label: string, value: string, goal: string) =>
      process.stdout.write(`${label.padEnd(44)} ${value.padStart(12)}   goal ${goal}\n`);
    process.stdout.write(
      `\nbench:engine — ${PRS} pull requests, batch_size 1, all-in-one + sandbox (under load)\n\n`,
    );
    row('queue drained in', `${seconds.toFixed(1)} s`, '—');
    row('CI result → next code-host call, p50', `${quantile(latencies, 0.5).toFixed(0)} ms`, '—');
    row('CI result → next code-host call, p99', `${p99.toFixed(0)} ms`, '≤ 250 ms');
    row('baseline: one bare forge REST read, p50', `${base.toFixed(1)} ms`, '—');
    row('ratio p99 / baseline', `${(p99 / base).toFixed(1)}x`, '—');
    row('REST calls per merged pull request', calls.toFixed(1), '≤ 25');
    row('writes per merged pull request', writes.toFixed(1), '≤ 3');
    process.stdout.write('\nby operation (whole run):\n');
    for (const [operation, counts] of Object.entries(telemetry.usage.byOperation))
      process.stdout.write(
        `  ${operation.padEnd(28)} ${String(counts.calls).padStart(5)} calls ${String(counts.writes).padStart(5)} writes\n`,
      );
    log(`${latencies.length} CI results measured`);
  } finally {
    await running.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
