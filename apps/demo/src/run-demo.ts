import { ActivityLogReader } from './activity-log-reader';
import type { DemoOutput } from './demo-output';
import { DemoRepository } from './demo-repository';
import {
  expectedEnds,
  INITIAL_FILES,
  MERGIFY_YML,
  READY_LABEL,
  type DemoChange,
  type ExpectedEnd,
} from './demo-scenario';
import { QueueNarrator, type LogEvent, type Narration } from './queue-narrator';
import { QueueTally } from './queue-tally';
import type { SwitchyardHttp } from './switchyard-http';

export interface DemoOptions {
  readonly http: SwitchyardHttp;
  readonly scenario: readonly DemoChange[];
  readonly output: DemoOutput;
  /** How long the queue may take to drain before the demo gives up. */
  readonly timeoutMs: number;
  /** Pause between two reads of the activity log. */
  readonly pollMs?: number;
}

export interface DemoPullRequest {
  readonly number: number;
  readonly change: DemoChange;
  /** How it should have ended, given the order the queue took the pull requests in. */
  readonly expected: ExpectedEnd;
  readonly merged: boolean;
  /** Why it left the queue unmerged (the log's dequeue_code), null when it merged. */
  readonly dequeueCode: string | null;
  readonly asExpected: boolean;
}

export interface DemoResult {
  readonly repository: string;
  readonly pullRequests: readonly DemoPullRequest[];
  readonly narration: readonly Narration[];
  /** From the first label to the last departure, as the demo's clock saw it. */
  readonly drainSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The demo: a new repository with a label-driven `.mergify.yml`, a handful of pull requests
 * labelled `ready`, and the queue's story told from the activity log until every one has left
 * the queue (merged or dequeued). Everything goes over HTTP: the sandbox forge and `/v1`.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const { http, scenario, output } = options;
  const application = await http.call<{ account_scope: { login: string } }>('GET', '/v1/application');
  const startedAt = new Date();
  const repository = new DemoRepository(
    http,
    `${application.account_scope.login}/demo-${startedAt.getTime().toString(36)}`,
  );

  output.say(`Creating ${repository.fullName} on the sandbox forge, with this .mergify.yml:`);
  output.say(MERGIFY_YML.trimEnd().replace(/^/gm, '    '));
  await repository.create({ ...INITIAL_FILES, '.mergify.yml': MERGIFY_YML });

  output.say(`Opening ${scenario.length} pull requests:`);
  const opened: { number: number; change: DemoChange }[] = [];
  for (const change of scenario) {
    const number = await repository.open(change);
    opened.push({ number, change });
  }
  for (const { number, change } of opened)
    output.say(`  opened #${number} ${change.title} (${describe(change, opened)})`);
  for (const { number } of opened) await repository.label(number, READY_LABEL);
  output.say(
    `Labelled ${opened.map((p) => `#${p.number}`).join(' ')} "${READY_LABEL}": the rule queues them.\n`,
  );
  const labelledAt = Date.now();

  const reader = new ActivityLogReader(http, repository.fullName, startedAt);
  const narrator = new QueueNarrator();
  const tally = new QueueTally(opened.map((p) => p.number));
  const narration: Narration[] = [];
  let firstEventAt: number | null = null;
  output.progress(tally.progress());
  while (!tally.drained()) {
    if (Date.now() - labelledAt > options.timeoutMs) {
      output.done();
      throw new Error(
        `the queue did not drain in ${options.timeoutMs / 1000} s; still waiting on ${tally
          .unsettled()
          .map((n) => `#${n}`)
          .join(' ')}`,
      );
    }
    await sleep(options.pollMs ?? 500);
    for (const event of await reader.readNew()) {
      firstEventAt ??= Date.parse(event.received_at);
      tally.record(event);
      const told = narrator.narrate(event);
      if (told === null) continue;
      narration.push(told);
      output.narrate(told, secondsSince(firstEventAt, event));
    }
    output.progress(tally.progress());
  }
  const drainSeconds = (Date.now() - labelledAt) / 1000;
  output.done();

  const ends = expectedEnds(opened, tally.entryOrder);
  const pullRequests: DemoPullRequest[] = [];
  for (const { number, change } of opened) {
    const merged = await repository.isMerged(number);
    const expected = ends.get(number)!;
    const dequeueCode = tally.dequeueCodeOf(number);
    pullRequests.push({
      number,
      change,
      expected,
      merged,
      dequeueCode,
      asExpected: merged === expected.merged,
    });
  }
  return { repository: repository.fullName, pullRequests, narration, drainSeconds };
}

const secondsSince = (origin: number, event: LogEvent) => (Date.parse(event.received_at) - origin) / 1000;

const describe = (change: DemoChange, opened: readonly { number: number; change: DemoChange }[]): string => {
  const rival = opened.find(
    (other) => other.change.name === change.rival || other.change.rival === change.name,
  );
  if (rival) {
    const conflict = change.expected.merged ? rival.change.expected : change.expected;
    const kind = conflict.merged ? 'conflict' : conflict.because;
    return `a ${kind} with #${rival.number}: whichever the queue takes second is dequeued`;
  }
  return change.expected.merged ? 'should merge' : `should be dequeued: ${change.expected.because}`;
};
