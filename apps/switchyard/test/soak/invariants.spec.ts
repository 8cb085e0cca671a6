import { boundsOf, checkInvariants, stayBoundMs, type Observed } from './invariants';
import type { QueueEvent } from './queue-history';
import { ciMarker, type PullPlan, type Scenario } from './scenario';

/** A hand-written scenario: two pull requests queued by label, one good and one failing. */
const pull = (
  name: string,
  nature: PullPlan['nature'],
  lines: string[],
  conflictGroup: string | null = null,
): PullPlan => ({
  name,
  nature,
  entry: 'ready-label',
  path: `web/${name}.txt`,
  lines,
  wip: false,
  conflictGroup,
});
const scenarioOf = (pulls: PullPlan[]): Scenario => ({
  seed: 'spec',
  configuration: {
    queues: [
      {
        name: 'default',
        batchSize: 1,
        batchMaxWaitSeconds: 0,
        maxChecksRetries: 0,
        mergeMethod: 'merge',
        allowInplaceChecks: true,
        queueConditions: [],
      },
    ],
    maxParallelChecks: 1,
    skipIntermediateResults: false,
    mode: 'serial',
    scopes: false,
    checksTimeoutSeconds: null,
    readyConditions: ['label=ready'],
    hotfix: false,
  },
  configurationText: '',
  baseFiles: {},
  pulls,
  steps: pulls.flatMap((_, index) => [
    { kind: 'open', pull: index } as const,
    { kind: 'enqueue', pull: index } as const,
  ]),
  killEngineBeforeStep: 0,
});

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const entered = (
  pullRequest: number,
  second: number,
  trigger = 'Rule: queue what is ready',
  headSha = 'h1',
): QueueEvent => ({
  type: 'merge_queue.pull_request_entered',
  data: { pullRequest, occurredAt: at(second), queueName: 'default', trigger, headSha },
});
const left = (pullRequest: number, second: number, merged: boolean, code = 'CHECKS_FAILED'): QueueEvent => ({
  type: 'merge_queue.pull_request_left',
  data: {
    pullRequest,
    occurredAt: at(second),
    merged,
    dequeueCode: merged ? 'PR_MERGED' : code,
    reason: merged ? 'merged' : 'checks failed',
    pullRequestHeadSha: 'h1',
  },
});
const mergedEvent = (pullRequest: number): QueueEvent => ({
  type: 'merge_queue.pull_request_merged',
  data: { pullRequest },
});

describe('the soak invariants', () => {
  const good = pull('p1', 'good', ['change p1']);
  const failing = pull('p2', 'failing', ['change p2', ciMarker.fail]);
  const scenario = scenarioOf([good, failing]);
  const bounds = boundsOf(scenario, 1, 5);
  const clean: Observed = {
    numbers: [1, 2],
    events: [entered(1, 0), entered(2, 0), left(1, 2, true), mergedEvent(1), left(2, 4, false)],
    merged: [true, false],
    baseBranchFiles: { 'web/p1.txt': 'change p1\n', 'web/p2.txt': null },
    held: [],
    stillQueued: [],
  };

  it('finds nothing wrong in a clean run', () => {
    expect(checkInvariants(scenario, clean, bounds)).toEqual([]);
  });

  it('finds a failing change on the base branch, a pull request merged twice, a good one not merged', () => {
    expect(
      checkInvariants(
        scenario,
        {
          ...clean,
          events: [...clean.events, mergedEvent(1)],
          merged: [false, true],
          baseBranchFiles: { 'web/p1.txt': null, 'web/p2.txt': `change p2\n${ciMarker.fail}\n` },
        },
        bounds,
      ),
    ).toEqual([
      'broken base branch: a change with a failing marker merged',
      '#1 merged 2 times',
      'p1 (#1) should have merged; its last stay ended with PR_MERGED: merged',
      'p2 (#2) merged a failing change',
    ]);
  });

  it('finds two changes of a semantic conflict both merged', () => {
    const pair = scenarioOf([
      pull('p1', 'semantic', ['change p1', 'sandbox-ci: provides token-g0'], 'g0'),
      pull('p2', 'semantic', ['change p2', 'sandbox-ci: conflicts-with token-g0'], 'g0'),
    ]);
    const found = checkInvariants(
      pair,
      {
        ...clean,
        events: [entered(1, 0), entered(2, 0), left(1, 2, true), left(2, 3, true)],
        merged: [true, true],
        baseBranchFiles: {
          'web/p1.txt': 'change p1\nsandbox-ci: provides token-g0\n',
          'web/p2.txt': 'change p2\nsandbox-ci: conflicts-with token-g0\n',
        },
      },
      bounds,
    );
    expect(found).toEqual([
      'broken base branch: two changes that conflict on token-g0 both merged',
      'conflict group g0: p1 (#1) and p2 (#2) both merged',
    ]);
  });

  it('finds a stay past B(A), a re-queue at the same head by a rule, and a queue that did not settle', () => {
    const bound = stayBoundMs(bounds, 1) / 1000;
    const found = checkInvariants(
      scenario,
      {
        ...clean,
        events: [
          entered(1, 0),
          entered(2, 0),
          left(1, 2, true),
          left(2, Math.ceil(bound) + 1, false),
          entered(2, Math.ceil(bound) + 2),
        ],
        stillQueued: [2],
      },
      bounds,
    );
    expect(found).toEqual([
      '#2 is still queued: the queue did not settle',
      expect.stringMatching(/^p2 \(#2\) stayed \d+\.\d s, past its bound of \d+\.\d s \(A = 1\)$/),
      'p2 (#2) was queued again at the same head by Rule: queue what is ready after CHECKS_FAILED',
    ]);
  });

  it('allows the same head back by a command, and excuses time the queue was held', () => {
    const bound = stayBoundMs(bounds, 1);
    const found = checkInvariants(
      scenario,
      {
        ...clean,
        events: [
          entered(1, 0),
          entered(2, 0),
          left(1, 2, true),
          left(2, 4, false),
          entered(2, 5, 'Command: requeue'),
          left(2, 6 + Math.ceil(bound / 1000), false),
        ],
        held: [{ from: Date.parse(at(5)), to: Date.parse(at(5)) + bound }],
      },
      bounds,
    );
    expect(found).toEqual([]);
  });
});
