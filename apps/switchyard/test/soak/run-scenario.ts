import { mergeQueueStreamId } from '@switchyard/merge-queue';
import type { EventStore } from '@switchyard/event-store';
import {
  boundsOf,
  checkInvariants,
  failedAfterFlakyBase,
  flakyMergedAt,
  stayBoundMs,
  type Bounds,
  type Observed,
  type Window,
} from './invariants';
import { staysOf, type QueueEvent, type Stay } from './queue-history';
import { expectationsOf, type Scenario, type Step } from './scenario';
import { SoakClient } from './soak-client';

/** Where a scenario runs: a deployment's HTTP origin and the store its queue writes to. */
export interface SoakTarget {
  readonly name: string;
  readonly baseUrl: string;
  readonly adminKey: string;
  readonly store: Pick<EventStore, 'readStream'>;
  /** `SWITCHYARD_SANDBOX_CI_SECONDS` of the deployment. */
  readonly ciSeconds: number;
  /** SIGKILL of an engine in the middle of the run, and a fresh one in its place (split deployments). */
  killEngine?(): Promise<void>;
}

export interface SoakRunOptions {
  readonly repository: string;
  /** Code-host latency allowed per round of checks, in seconds (not part of B). */
  readonly slackSeconds: number;
  /** The longest the run waits for the queue to settle after its last step, in ms, whatever B says. */
  readonly settleCapMs: number;
  readonly log?: (line: string) => void;
}

export interface SoakRunResult {
  readonly violations: string[];
  readonly pulls: number;
  readonly stays: number;
  readonly merged: number;
  readonly durationMs: number;
}

const SETTLE_FLOOR_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** ISO 8601 without a zone, as the freeze API takes it (the zone is given apart). */
const localUtc = (at: number) => new Date(at).toISOString().slice(0, 19);

/** Plays a scenario against a deployment over HTTP, waits for the queue to settle, and checks it. */
export async function runScenario(
  target: SoakTarget,
  scenario: Scenario,
  options: SoakRunOptions,
): Promise<SoakRunResult> {
  const started = Date.now();
  const client = new SoakClient(target.baseUrl, target.adminKey, options.repository);
  const numbers: (number | null)[] = scenario.pulls.map(() => null);
  const held: Window[] = [];
  let pausedAt: number | null = null;

  await client.commitFile('main', 'README.md', `# soak ${scenario.seed}\n`);
  for (const [path, text] of Object.entries(scenario.baseFiles)) await client.commitFile('main', path, text);
  await client.commitFile('main', '.mergify.yml', scenario.configurationText);

  const numberOf = (pull: number) => {
    const number = numbers[pull];
    if (number == null) throw new Error(`${scenario.pulls[pull]!.name} is not open yet`);
    return number;
  };
  const perform = async (step: Step) => {
    switch (step.kind) {
      case 'wait':
        return sleep(step.ms);
      case 'open': {
        const pull = scenario.pulls[step.pull]!;
        await client.branchFromMain(pull.name);
        await client.commitFile(pull.name, pull.path, `${pull.lines.join('\n')}\n`);
        numbers[step.pull] = await client.openPull(pull.name, `${pull.nature} change ${pull.name}`);
        if (pull.wip) await client.addLabel(numbers[step.pull]!, 'wip');
        return;
      }
      case 'enqueue': {
        const { entry } = scenario.pulls[step.pull]!;
        if (entry === 'command') return client.comment(numberOf(step.pull), '@mergify queue');
        return client.addLabel(numberOf(step.pull), entry === 'ready-label' ? 'ready' : 'hotfix');
      }
      case 'unwip':
        return client.removeLabel(numberOf(step.pull), 'wip');
      case 'withdraw': {
        const { entry } = scenario.pulls[step.pull]!;
        if (entry === 'command') return client.comment(numberOf(step.pull), '@mergify dequeue');
        return client.removeLabel(numberOf(step.pull), entry === 'ready-label' ? 'ready' : 'hotfix');
      }
      case 'requeue':
        return client.comment(numberOf(step.pull), '@mergify requeue');
      case 'push': {
        const pull = scenario.pulls[step.pull]!;
        return client.commitFile(pull.name, pull.path, `${step.lines.join('\n')}\n`);
      }
      case 'pause':
        await client.expect(
          client.api('PUT', '/merge-queue/pause', { reason: 'soak pause' }),
          // 202: stored, and in force once a busy engine's effects reach it (README, "Pause").
          [200, 202],
          'pause',
        );
        pausedAt = Date.now();
        return;
      case 'unpause':
        await client.expect(client.api('DELETE', '/merge-queue/pause'), [204], 'unpause');
        held.push({ from: pausedAt ?? Date.now(), to: Date.now() });
        pausedAt = null;
        return;
      case 'freeze': {
        const from = Date.now() + step.startsInSeconds * 1000;
        const to = from + step.seconds * 1000;
        await client.expect(
          client.api('POST', '/scheduled_freeze', {
            reason: 'soak freeze',
            start: localUtc(from),
            end: localUtc(to),
            timezone: 'UTC',
            matching_conditions: [],
          }),
          [201],
          'freeze',
        );
        // Pull requests count as frozen from 2 s before the window (FREEZE_LEAD_MS), and it is seen within a second.
        held.push({ from: from - 3_000, to: to + 1_000 });
        return;
      }
    }
  };

  for (const [index, step] of scenario.steps.entries()) {
    if (index === scenario.killEngineBeforeStep && target.killEngine) {
      options.log?.(`  kill -9 of an engine before step ${index}`);
      await target.killEngine();
    }
    if (process.env.SOAK_VERBOSE && step.kind !== 'wait')
      options.log?.(
        `  ${((Date.now() - started) / 1000).toFixed(1)} s: ${step.kind}${'pull' in step ? ` ${scenario.pulls[step.pull]!.name}` : ''}`,
      );
    await perform(step);
  }

  const events = async (): Promise<QueueEvent[]> => {
    const { events: stored } = await target.store.readStream(mergeQueueStreamId(options.repository, 'main'));
    return stored.map((event) => ({ type: event.type, data: event.data as Record<string, unknown> }));
  };
  const bounds = boundsOf(scenario, target.ciSeconds, options.slackSeconds);
  const settled = await settle(scenario, numbers, events, bounds, held, options);

  const baseBranchFiles: Record<string, string | null> = {};
  const paths = new Set([...Object.keys(scenario.baseFiles), ...scenario.pulls.map((pull) => pull.path)]);
  for (const path of paths) baseBranchFiles[path] = await client.fileOn('main', path);
  const merged: boolean[] = [];
  for (const number of numbers) merged.push(number === null ? false : await client.merged(number));
  const observed: Observed = {
    numbers,
    events: settled.events,
    merged,
    baseBranchFiles,
    held,
    stillQueued: settled.stillQueued,
  };
  const violations = checkInvariants(scenario, observed, bounds);
  violations.push(...(await disagreements(client, staysOf(settled.events))));
  return {
    violations,
    pulls: scenario.pulls.length,
    stays: staysOf(settled.events).length,
    merged: merged.filter(Boolean).length,
    durationMs: Date.now() - started,
  };
}

/**
 * Waits until no pull request is queued, every one that must merge has, and the stream has been
 * quiet for a few seconds (a wrongful re-queue would follow a leave within an intake cycle); at
 * most B for the whole queue, capped.
 */
async function settle(
  scenario: Scenario,
  numbers: readonly (number | null)[],
  events: () => Promise<QueueEvent[]>,
  bounds: Bounds,
  held: readonly Window[],
  options: SoakRunOptions,
): Promise<{ events: QueueEvent[]; stillQueued: number[] }> {
  const expectations = expectationsOf(scenario);
  const heldMs = held.reduce((sum, w) => sum + Math.max(0, w.to - Date.now()), 0);
  // Each stay is held to B(A) by the invariants; this only says when to stop waiting for a wedged
  // queue, so it never comes before SETTLE_FLOOR_MS (a loaded machine is slow, not wrong).
  const deadline =
    Date.now() +
    Math.min(
      options.settleCapMs,
      Math.max(SETTLE_FLOOR_MS, stayBoundMs(bounds, scenario.pulls.length) + heldMs),
    );
  const quietMs = 4_000;
  let seen = -1;
  let quietSince = Date.now();
  let lastReport = Date.now();
  for (;;) {
    const current = await events();
    if (current.length !== seen) {
      seen = current.length;
      quietSince = Date.now();
    }
    const stays = staysOf(current);
    const queued = stays.filter((stay: Stay) => stay.to === null).map((stay) => stay.pullRequest);
    // A failure after a flaky change reached the base is excused (invariants.ts): no merge to wait for.
    const flakyAt = flakyMergedAt(scenario, numbers, stays);
    const mergedNumbers = new Set(
      current
        .filter((e) => e.type === 'merge_queue.pull_request_merged')
        .map((e) => e.data.pullRequest as number),
    );
    const waitingForMerge = expectations.some(
      (expectation, index) =>
        expectation === 'merged' &&
        numbers[index] !== null &&
        !mergedNumbers.has(numbers[index]!) &&
        !failedAfterFlakyBase(flakyAt, stays, numbers[index]!),
    );
    const done = queued.length === 0 && !waitingForMerge && Date.now() - quietSince >= quietMs;
    if (done) return { events: current, stillQueued: [] };
    if (Date.now() > deadline) {
      options.log?.(`  gave up waiting; the queue's last events:\n${recentEvents(current, 25)}`);
      return { events: current, stillQueued: queued };
    }
    if (Date.now() - lastReport > 60_000) {
      lastReport = Date.now();
      options.log?.(
        `  settling: queued ${queued.map((n) => `#${n}`).join(', ') || 'none'}; ${current.length} events`,
      );
    }
    await sleep(500);
  }
}

const dayAround = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
/** The last events of the stream, one line each, with what tells them apart. */
function recentEvents(events: readonly QueueEvent[], count: number): string {
  return events
    .slice(-count)
    .map((event) => {
      const { pullRequest, pullRequests, dequeueCode, abortCode, trainCarId, occurredAt } = event.data;
      const numbers =
        pullRequest ?? (pullRequests as { number: number }[] | undefined)?.map((pr) => pr.number);
      const detail = [numbers, dequeueCode ?? abortCode, trainCarId].filter((part) => part != null);
      return `    ${String(occurredAt).slice(11, 23)} ${event.type.replace('merge_queue.', '')} ${detail.map((part) => JSON.stringify(part)).join(' ')}`;
    })
    .join('\n');
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * For every pull request's last stay, the status API, the activity log and the status comment must
 * tell the same outcome and reason. They are written by different reactors: each gets a while.
 */
async function disagreements(client: SoakClient, stays: readonly Stay[]): Promise<string[]> {
  const last = new Map<number, Stay>();
  for (const stay of stays) last.set(stay.pullRequest, stay);
  const problems: string[] = [];
  const deadline = Date.now() + 30_000;
  for (const stay of last.values()) {
    if (stay.to === null) continue;
    let found = await disagreementsOf(client, stay);
    while (found.length > 0 && Date.now() < deadline) {
      await sleep(500);
      found = await disagreementsOf(client, stay);
    }
    problems.push(...found);
  }
  return problems;
}

async function disagreementsOf(client: SoakClient, stay: Stay): Promise<string[]> {
  const number = stay.pullRequest;
  const problems: string[] = [];
  const status = await client.expect(client.api('GET', '/merge-queue/status'), [200], 'status');
  const listed = [
    ...((status.body.batches ?? []) as { status?: { code?: string }; pull_requests: { number: number }[] }[])
      .filter((batch) => !stay.merged || batch.status?.code !== 'merged')
      .flatMap((batch) => batch.pull_requests.map((pr) => pr.number)),
    ...((status.body.waiting_pull_requests ?? []) as { number: number }[]).map((pr) => pr.number),
  ];
  if (listed.includes(number)) problems.push(`#${number} left the queue but the status API still lists it`);
  const detail = await client.api('GET', `/merge-queue/pull/${number}`);
  if (detail.status !== 404)
    problems.push(`#${number} left the queue but merge-queue/pull answers ${detail.status}`);

  const logs = await client.expect(
    // An explicit window: the all-in-one harness answers with a clock of its own, the queue writes with the wall clock.
    client.api(
      'GET',
      `/logs?pull_request=${number}&event_type=action.queue.leave&per_page=100` +
        `&received_from=${dayAround(-1)}&received_to=${dayAround(1)}`,
    ),
    [200],
    'logs',
  );
  const leaves = (
    logs.body.events as { timestamp: string; metadata: { reason: string; merged: boolean } }[]
  ).sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
  const logged = leaves[0]?.metadata;
  if (!logged) problems.push(`#${number}: the activity log has no queue.leave`);
  else if (logged.merged !== stay.merged || logged.reason !== stay.reason)
    problems.push(
      `#${number}: the activity log says ${logged.merged ? 'merged' : `dequeued: ${logged.reason}`}, the queue ${stay.merged ? 'merged' : `dequeued: ${stay.reason}`}`,
    );

  const comment = await client.statusComment(number);
  const current = comment?.split('\n')[1] ?? '';
  const expected = stay.merged
    ? '**Merge queue**: ✅ merged'
    : `**Merge queue**: ❌ dequeued from \`${stay.queueName}\`: ${sentence(stay.reason ?? '')}`;
  if (!current.startsWith(expected))
    problems.push(`#${number}: the status comment reads "${current}", expected "${expected}…"`);
  return problems;
}
