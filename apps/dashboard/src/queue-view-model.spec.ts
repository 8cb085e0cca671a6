import type { BatchJson, LogEventJson, PullRequestJson, QueueStatusJson } from './api-types';
import {
  abortCodeInWords,
  dequeueReasonOf,
  describeQueueState,
  queueStateOf,
  relativeTime,
  timelineOf,
  trainOf,
  waitingRowsOf,
} from './queue-view-model';
import { routeOf } from './routes';

const pull = (number: number, extra: Partial<PullRequestJson> = {}): PullRequestJson => ({
  number,
  title: `Change ${number}`,
  url: `https://example.test/pull/${number}`,
  author: { id: 1, login: 'ada' },
  queued_at: '2026-03-02T10:00:00Z',
  priority_alias: 'medium',
  priority_rule_name: 'default',
  labels: [],
  scopes: [],
  ...extra,
});

const batch = (code: string, pulls: PullRequestJson[], extra: Partial<BatchJson> = {}): BatchJson => ({
  id: `batch-${pulls.map((p) => p.number).join('-')}`,
  name: `Batch ${pulls.map((p) => `#${p.number}`).join(' ')}`,
  parent_ids: [],
  status: { code },
  started_at: '2026-03-02T10:01:00Z',
  estimated_merge_at: null,
  ci_finished_at: null,
  scopes: [],
  queue_rule_name: 'default',
  checks_summary: { passed: 1, total: 4 },
  pull_requests: pulls,
  queue_pull_request_number: 99,
  ...extra,
});

const status = (extra: Partial<QueueStatusJson> = {}): QueueStatusJson => ({
  batches: [],
  waiting_pull_requests: [],
  mode: 'serial',
  pause: null,
  ...extra,
});

const never = () => false;

describe('queue state at a glance', () => {
  it('is idle with nothing queued, running with a batch or a waiting pull request', () => {
    expect(queueStateOf(status(), [], never)).toEqual({ kind: 'idle' });
    const running = queueStateOf(
      status({ batches: [batch('running', [pull(1)])], waiting_pull_requests: [pull(2)] }),
      [],
      never,
    );
    expect(running).toEqual({ kind: 'running', batches: 1, waiting: 1 });
    expect(describeQueueState(running)).toBe('Running: 1 batch, 1 pull request waiting');
  });

  it('paused wins over everything, with its reason', () => {
    const state = queueStateOf(
      status({
        pause: { paused: true, reason: 'release', paused_at: null },
        batches: [batch('frozen', [pull(1)])],
      }),
      [],
      never,
    );
    expect(describeQueueState(state)).toBe('Paused: release');
  });

  it('frozen by an ongoing freeze (its reason) or by the status marks', () => {
    const freeze = {
      id: 'f',
      reason: 'code freeze',
      start: '2026-03-01T00:00:00',
      end: null,
      timezone: 'UTC',
    };
    expect(queueStateOf(status(), [freeze], () => true)).toEqual({ kind: 'frozen', reason: 'code freeze' });
    expect(
      queueStateOf(status({ waiting_pull_requests: [pull(3, { is_frozen: true })] }), [freeze], never).kind,
    ).toBe('frozen');
  });
});

describe('the train and the waiting list', () => {
  it('draws each batch as a car with its state, checks, draft and pull requests', () => {
    const [car] = trainOf(status({ batches: [batch('running', [pull(1), pull(2)])] }));
    expect(car).toMatchObject({
      state: 'CI running',
      checks: '1/4 checks passed',
      progress: 0.25,
      draft: 99,
      pullRequests: [{ number: 1 }, { number: 2 }],
    });
    expect(
      trainOf(
        status({ batches: [batch('preparing', [pull(1)], { checks_summary: { passed: 0, total: 0 } })] }),
      )[0].progress,
    ).toBeNull();
  });

  it('lists waiting pull requests in queue order with priority, scopes and ETA', () => {
    const rows = waitingRowsOf(
      status({
        waiting_pull_requests: [
          pull(5, {
            scopes: ['api', 'web'],
            estimated_merge_at: '2026-03-02T11:00:00Z',
            priority_alias: 'high',
          }),
          pull(6, { dequeue_requested: true }),
        ],
      }),
    );
    expect(rows.map((row) => [row.position, row.number, row.priority, row.scopes, row.eta])).toEqual([
      [1, 5, 'high', 'api, web', '2026-03-02T11:00:00Z'],
      [2, 6, 'medium', '—', null],
    ]);
    expect(rows[1].dequeueRequested).toBe(true);
  });

  it('says when, relative to now', () => {
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(relativeTime('2026-03-02T10:12:00Z', now)).toBe('in 12 min');
    expect(relativeTime('2026-03-02T07:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-03-02T10:00:10Z', now)).toBe('in under a minute');
    expect(relativeTime(null, now)).toBe('unknown');
  });
});

describe("a pull request's story", () => {
  const event = (
    id: number,
    type: string,
    metadata: Record<string, unknown>,
    outcome: LogEventJson['outcome'] = 'neutral',
  ): LogEventJson => ({
    id,
    received_at: `2026-03-02T10:0${id}:00Z`,
    trigger: 'merge queue',
    pull_request: 7,
    base_ref: 'main',
    outcome,
    type,
    metadata,
  });
  const failed = [
    event(3, 'action.queue.leave', { reason: 'The checks failed', merged: false }, 'failure'),
    event(1, 'action.queue.enter', { queue_name: 'default' }),
    event(2, 'action.queue.checks_end', {
      aborted: true,
      abort_code: 'CHECKS_FAILED',
      abort_reason: null,
      speculative_check_pull_request: {
        checks_conclusion: 'failure',
        unsuccessful_checks: [{ name: 'ci/test', url: 'https://ci.test/run/1' }],
      },
    }),
  ];

  it('tells the timeline oldest first, with links to the failing checks', () => {
    const steps = timelineOf(failed);
    expect(steps.map((step) => step.title)).toEqual([
      'Entered the default queue',
      'Queue checks ended early',
      'Left the queue',
    ]);
    expect(steps[1].links).toEqual([{ label: 'Failing check: ci/test', url: 'https://ci.test/run/1' }]);
  });

  it('gives the dequeue reason in plain words, and none for a merge', () => {
    expect(dequeueReasonOf(failed)).toBe('Its checks failed. (The checks failed)');
    expect(dequeueReasonOf([event(1, 'action.queue.leave', { reason: 'merged', merged: true })])).toBeNull();
    expect(abortCodeInWords('SOMETHING_NEW', 'the raw reason')).toBe('the raw reason');
  });
});

describe('routes', () => {
  it('maps /ui paths to views, branches with slashes included', () => {
    expect(routeOf('/ui')).toEqual({ page: 'repositories' });
    expect(routeOf('/ui/sign-in')).toEqual({ page: 'sign-in' });
    expect(routeOf('/ui/repos/acme/widgets/queues/release%2F1.0')).toEqual({
      page: 'queue',
      repository: 'acme/widgets',
      branch: 'release/1.0',
    });
    expect(routeOf('/ui/repos/acme/widgets/pulls/12')).toEqual({
      page: 'pull',
      repository: 'acme/widgets',
      number: 12,
    });
    expect(routeOf('/ui/repos/acme/widgets/pulls/x').page).toBe('not-found');
    expect(routeOf('/ui/repos/acme/widgets/tests')).toEqual({ page: 'tests', repository: 'acme/widgets' });
    expect(routeOf('/ui/repos/acme/widgets/tests/6f1c')).toEqual({
      page: 'test',
      repository: 'acme/widgets',
      testId: '6f1c',
    });
    expect(routeOf('/ui/repos/acme/widgets/queues/release%2F1.0/statistics')).toEqual({
      page: 'statistics',
      repository: 'acme/widgets',
      branch: 'release/1.0',
    });
    expect(routeOf('/ui/repos/acme/widgets/queues/main/other').page).toBe('not-found');
    expect(routeOf('/ui/repos/acme/widgets/simulator')).toEqual({
      page: 'simulator',
      repository: 'acme/widgets',
    });
  });
});
