import Fastify from 'fastify';
import { codeHostProjections } from '@switchyard/code-host/pull-requests';
import type { EventStore } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { FixedClock } from '@switchyard/kernel';
import {
  mergeQueueStreamId,
  snapshottingMergeQueueDecider,
  type MergeQueueCommand,
} from '@switchyard/merge-queue';
import { queueStatusProjection, QueueStatusService } from '@switchyard/merge-queue/status';
import { IN_MEMORY_DATA_DIR, loadConfig, openStorage } from '@switchyard/platform';
import { runLoad } from './http/load';
import { printMachine } from './logs/report';

/**
 * bench:status — GET merge-queue/status for a repository with 500 queued pull requests and 5
 * running batches, served by the status service from its read model on Fastify, beside a bare
 * Fastify route returning the same answer precomputed, under the same autocannon load; then
 * `?at=` a day back. In process (no Nest, no auth), PGlite in memory (PostgreSQL with
 * DATABASE_URL). BENCH_STATUS_SECONDS (default 3) per run.
 */
const SECONDS = Number(process.env.BENCH_STATUS_SECONDS ?? '3');
const CONNECTIONS = 10;
const QUEUED = 500;
const REPOSITORY = 'acme/bench';
const DAY = 24 * 3600_000;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function seed(commands: CommandService, store: EventStore, now: number): Promise<void> {
  const stream = mergeQueueStreamId(REPOSITORY, 'main');
  const at = (i: number) => now - 2 * DAY + i * Math.floor((2 * DAY) / (QUEUED + 10));
  const issue = (command: MergeQueueCommand) =>
    commands.handle(stream, snapshottingMergeQueueDecider, command);
  for (let n = 1; n <= QUEUED; n++)
    await issue({
      kind: 'enqueue',
      repository: REPOSITORY,
      baseRef: 'main',
      at: at(n),
      pullRequest: n,
      queueName: 'default',
      priority: 2000,
      priorityRuleName: null,
      allowCheckInterruption: false,
      headSha: `head-${n}`,
      scopes: [],
      allScopes: false,
      dependsOn: [],
      trigger: 'Rule: bench',
    });
  // The code host answers for each batch the planner prepared: five running batches.
  const { events } = await store.readStream(stream);
  const preparing = events.filter((e) => e.type === 'merge_queue.batch_preparing');
  for (const [i, event] of preparing.entries()) {
    const data = event.data as { trainCarId: string; attempt: number };
    await issue({
      kind: 'draft_created',
      repository: REPOSITORY,
      baseRef: 'main',
      at: at(QUEUED + 1 + i),
      batchId: data.trainCarId,
      attempt: data.attempt,
      checkPullRequest: 10_000 + i,
      headSha: `draft-${i}`,
    });
  }
}

async function main(): Promise<void> {
  printMachine([`status of ${QUEUED} queued pull requests; ${SECONDS} s runs; figures under load`]);
  const config = loadConfig({
    SWITCHYARD_DATA_DIR: IN_MEMORY_DATA_DIR,
    SWITCHYARD_ACCOUNT: 'acme',
    SWITCHYARD_ADMIN_KEY: 'bench-admin-key-0123456789abcdef',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const storage = await openStorage(config, [queueStatusProjection, ...codeHostProjections]);
  const now = Date.now();
  const commands = new CommandService(storage.store);
  await seed(commands, storage.store, now);
  await queueStatusProjection.setup(storage.executor);
  const { events } = await storage.store.readStream(mergeQueueStreamId(REPOSITORY, 'main'));
  await queueStatusProjection.apply(storage.executor, events);

  const service = new QueueStatusService(
    storage.executor,
    storage.store,
    commands,
    new FixedClock(new Date(now)),
    {
      assertRunning: async () => undefined,
      waitFor: async () => true,
    },
  );
  const live = await service.status(REPOSITORY, { branch: 'main' });
  const running = live.batches.filter((b) => b.status.code === 'running').length;
  out(
    `seeded: ${events.length} queue events, ${running} running batches, ${live.waiting_pull_requests.length} waiting`,
  );
  const precomputed = JSON.stringify(live);

  const server = Fastify({ logger: false });
  server.get('/status', async (request) => {
    const at = (request.query as { at?: string }).at;
    return service.status(REPOSITORY, { branch: 'main', at: at === undefined ? null : new Date(at) });
  });
  server.get('/bare', (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(precomputed);
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  try {
    const load = (path: string) => ({
      next: () => ({ method: 'GET' as const, path }),
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    await runLoad(url, {}, { ...load('/status'), seconds: 1 }); // warm-up
    const bare = await runLoad(url, {}, load('/bare'));
    const ours = await runLoad(url, {}, load('/status'));
    out(
      `GET status (${CONNECTIONS} connections): ${Math.round(ours.requestsPerSecond)} req/s, p99 ${ours.p99} ms; ` +
        `bare Fastify, same JSON: ${Math.round(bare.requestsPerSecond)} req/s, p99 ${bare.p99} ms → ` +
        `${(ours.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}× (goals ≥ 0.6×, p99 ≤ 5 ms); failures ${ours.failures + bare.failures}`,
    );
    const dayBack = new Date(now - DAY).toISOString();
    const timings: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const response = await fetch(`${url}/status?at=${encodeURIComponent(dayBack)}`);
      await response.text();
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    out(
      `GET status?at= a day back: p50 ${timings[10]!.toFixed(1)} ms, max ${timings[19]!.toFixed(1)} ms over 20 sequential requests (goal ≤ 50 ms)`,
    );
  } finally {
    await server.close();
    await storage.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
