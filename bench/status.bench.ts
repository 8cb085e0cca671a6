import Fastify from 'fastify';
import type { CheckOnHead } from '@switchyard/code-host';
import { codeHostProjections } from '@switchyard/code-host/pull-requests';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions/testing/pull-request-snapshot.fixture';
import type { EventStore } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { systemClock } from '@switchyard/kernel';
import {
  mergeQueueStreamId,
  snapshottingMergeQueueDecider,
  type MergeQueueCommand,
} from '@switchyard/merge-queue';
import {
  MergeConditionsReader,
  QUEUE_RULES_REUSED_MS,
  queueStatusProjection,
  QueueStatusService,
} from '@switchyard/merge-queue/status';
import { IN_MEMORY_DATA_DIR, loadConfig, openStorage } from '@switchyard/platform';
import { ProcessorHost } from '@switchyard/projection';
import { runLoad, type LoadResult } from './http/load';
import { median } from './http/report';
import { printMachine } from './logs/report';

/**
 * bench:status — GET merge-queue/status for a repository with 500 queued pull requests and 5
 * running batches, served by the status service from its read model on Fastify, beside a bare
 * Fastify route returning the same answer precomputed, under the same autocannon load; then
 * `?at=` a day back. In process (no Nest, no auth, on either side; autocannon shares the process),
 * PGlite in memory (PostgreSQL with DATABASE_URL). As in the app: the read models kept by their
 * processors (rows and checkpoints), the system clock (a live answer is rendered again each
 * second), every pull request with a snapshot, and the running batches' merge conditions judged
 * from a configuration file (read through a stand-in for the code host). Twice: with the read
 * models still, and with another repository's pull requests changing meanwhile (both routes).
 * Medians of BENCH_STATUS_ROUNDS (default 3) rounds of BENCH_STATUS_SECONDS (default 3) per route.
 */
const SECONDS = Number(process.env.BENCH_STATUS_SECONDS ?? '3');
const ROUNDS = Number(process.env.BENCH_STATUS_ROUNDS ?? '3');
const CONNECTIONS = 10;
const QUEUED = 500;
const REPOSITORY = 'acme/bench';
const DAY = 24 * 3600_000;

const out = (line: string) => process.stdout.write(`${line}\n`);

type Measured = LoadResult & { cpuMs: number };

const CONFIGURATION = `queue_rules:
  - name: default
    merge_conditions:
      - check-success=tests
      - label!=hold
      - "#approved-reviews-by>=1"
`;

const check = (name: string, state: CheckOnHead['state']): CheckOnHead => ({
  name,
  appSlug: null,
  source: 'check-run',
  state,
  detailsUrl: null,
  startedAt: null,
  completedAt: null,
});

/** A snapshot per queued pull request and per draft, as the code host's events leave them. */
async function seedSnapshots(store: EventStore, drafts: number[]): Promise<void> {
  const [owner, name] = REPOSITORY.split('/') as [string, string];
  const repository = { owner, name, fullName: REPOSITORY, defaultBranch: 'main' };
  const numbers = [...Array.from({ length: QUEUED }, (_, i) => i + 1), ...drafts];
  await store.appendToStream(
    'bench-pull-requests',
    numbers.map((number) => ({
      type: 'github.pull_request_changed',
      data: {
        repository: REPOSITORY,
        number,
        action: 'opened',
        pullRequest: pullRequestSnapshotFixture({
          repository,
          number,
          title: `Change number ${number}`,
          author: `dev-${number % 17}`,
          labels: number % 3 === 0 ? ['bench', 'backend'] : ['bench'],
          checks: [check('tests', number % 2 === 0 ? 'success' : 'pending'), check('lint', 'success')],
        }),
        label: null,
        sender: 'bench',
      },
    })),
    { expectedRevision: 'any' },
  );
}

const CHANGES_PER_SECOND = 20;

/**
 * Runs `load` while another repository's pull requests change (CHANGES_PER_SECOND events through
 * the snapshot projection): the read models' checkpoints move, though this repository's answer
 * does not.
 */
async function whileOthersChange<T>(store: EventStore, load: () => Promise<T>): Promise<T> {
  let n = 0;
  const appending = new Set<Promise<unknown>>();
  const timer = setInterval(() => {
    n += 1;
    const append = store.appendToStream(
      'bench-other-pull-requests',
      [
        {
          type: 'github.pull_request_changed',
          data: {
            repository: 'acme/other',
            number: n,
            action: 'opened',
            pullRequest: pullRequestSnapshotFixture({ number: n }),
            label: null,
            sender: 'bench',
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    appending.add(append);
    void append.finally(() => appending.delete(append));
  }, 1000 / CHANGES_PER_SECOND);
  try {
    return await load();
  } finally {
    clearInterval(timer);
    await Promise.all(appending);
  }
}

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
  printMachine([
    `status of ${QUEUED} queued pull requests; medians of ${ROUNDS} rounds of ${SECONDS} s; figures under load`,
  ]);
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
  await seedSnapshots(
    storage.store,
    Array.from({ length: 5 }, (_, i) => 10_000 + i),
  );
  // The read models as the app keeps them: runners that write rows and checkpoints, then follow.
  const processors = ProcessorHost.of([queueStatusProjection, ...codeHostProjections], {
    executor: storage.executor,
    store: storage.store,
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: (context, message) => out(`${message} ${JSON.stringify(context)}`),
    },
  });
  processors.start();
  if (!(await processors.waitFor(processors.names, await storage.store.headPosition(), 120_000)))
    throw new Error('the read models did not catch up');
  const { events } = await storage.store.readStream(mergeQueueStreamId(REPOSITORY, 'main'));

  const configurationReads = { count: 0 };
  const configuration = {
    read: async () => {
      configurationReads.count += 1;
      return { path: '.mergify.yml', content: CONFIGURATION };
    },
  };
  const service = new QueueStatusService(
    storage.executor,
    storage.store,
    systemClock,
    new MergeConditionsReader(configuration, storage.executor, systemClock),
  );
  const live = await service.status(REPOSITORY, { branch: 'main' });
  // The status answer shows a judgement only as waiting_schedule; the detail shows the evaluation.
  const runningBatches = live.batches.filter((b) => b.status.code === 'running');
  const details = await Promise.all(
    runningBatches.map((b) => service.pullRequest(REPOSITORY, b.pull_requests[0]!.number, null)),
  );
  const judged = details.filter((d) => d.mergeability_check?.conditions_evaluation).length;
  out(
    `seeded: ${events.length} queue events, ${runningBatches.length} running batches (${judged} with merge conditions judged), ` +
      `${live.waiting_pull_requests.length} waiting; answer ${Math.round(JSON.stringify(live).length / 1024)} KiB`,
  );
  const precomputed = await service.statusText(REPOSITORY, { branch: 'main' });

  const server = Fastify({ logger: false });
  // What the controller sends: the service's JSON text.
  server.get('/status', async (request, reply) => {
    const at = (request.query as { at?: string }).at;
    const text = await service.statusText(REPOSITORY, {
      branch: 'main',
      at: at === undefined ? null : new Date(at),
    });
    return reply.header('content-type', 'application/json; charset=utf-8').send(text);
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
    await runLoad({ baseUrl: url, pid: process.pid }, {}, { ...load('/status'), seconds: 1 }); // warm-up
    // The process's CPU time per answered request (autocannon's share included, alike on both
    // sides): less at the mercy of other processes than latency on a loaded machine.
    const cpuPerRequest = (run: { ours: Measured; bare: Measured }) =>
      `CPU per request ${run.ours.cpuMs.toFixed(2)} ms against ${run.bare.cpuMs.toFixed(2)} ms`;
    const row = (label: string, run: { ours: Measured; bare: Measured }) => {
      const { ours, bare } = run;
      out(
        `${label} (${CONNECTIONS} connections): ${Math.round(ours.requestsPerSecond)} req/s, p99 ${ours.p99} ms; ` +
          `bare Fastify, same JSON: ${Math.round(bare.requestsPerSecond)} req/s, p99 ${bare.p99} ms → ` +
          `${(ours.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}× (goals ≥ 0.6×, p99 ≤ 5 ms); ` +
          `${cpuPerRequest(run)}; failures ${ours.failures + bare.failures}`,
      );
    };
    // Rounds alternate which route goes first, so a change in the machine's load hits both alike.
    const rounds = async (during: <T>(load: () => Promise<T>) => Promise<T>) => {
      const runs = { ours: [] as LoadResult[], bare: [] as LoadResult[] };
      const cpu = { ours: 0, bare: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
        for (const side of order) {
          const before = process.cpuUsage();
          runs[side].push(
            await during(() =>
              runLoad({ baseUrl: url, pid: process.pid }, {}, load(side === 'ours' ? '/status' : '/bare')),
            ),
          );
          const used = process.cpuUsage(before);
          cpu[side] += (used.user + used.system) / 1000;
        }
      }
      const measured = (side: 'ours' | 'bare'): Measured => {
        const result = median(runs[side]);
        return { ...result, cpuMs: cpu[side] / Math.max(1, result.requests) };
      };
      return { ours: measured('ours'), bare: measured('bare') };
    };
    row('GET status, read models still', await rounds((run) => run()));
    row(
      `GET status, another repository's pull requests changing ${CHANGES_PER_SECOND}/s`,
      await rounds((run) => whileOthersChange(storage.store, run)),
    );
    out(`configuration file read ${configurationReads.count} times (kept ${QUEUE_RULES_REUSED_MS / 1000} s)`);
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
    await processors.stop();
    await storage.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
