import type { CheckOnHead, PullRequestSnapshot } from '@switchyard/code-host';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions';
import {
  batchOf,
  checksReported,
  configure,
  enqueue,
  minutes,
  policyWith,
  REPOSITORY,
  run,
  stateOf,
  then,
  withDrafts,
} from '../../testing/queue-commands';
import { decideBasePush, decideChecks, mergesInFlight, pauseCommands, scopesCommands } from './queue-facts';

const where = { repository: REPOSITORY, baseRef: 'main', at: minutes(5) };

const check = (state: CheckOnHead['state'], name = 'ci'): CheckOnHead => ({
  name,
  appSlug: 'sandbox-ci',
  source: 'check-run',
  state,
  detailsUrl: null,
  startedAt: '2026-07-01T10:01:00Z',
  completedAt: state === 'pending' ? null : '2026-07-01T10:02:00Z',
});

/** #1 and #2 queued in one batch of two, checked on draft 900 (head `draft-0`). */
const runningBatch = () =>
  withDrafts(run([configure(policyWith({}, { batchSize: 2 })), enqueue(1, 0), enqueue(2, 0)]).events, 1);

const draft = (head: string, checks: CheckOnHead[]): PullRequestSnapshot =>
  pullRequestSnapshotFixture({
    repository: { owner: 'acme', name: 'mono', fullName: REPOSITORY, defaultBranch: 'main' },
    number: 900,
    draft: true,
    head: { ref: 'mergify/merge-queue/0123456789', sha: head, repositoryFullName: REPOSITORY },
    checks,
  });

const judge = (checked: PullRequestSnapshot, head: 'any head' | 'checked head' = 'any head') =>
  decideChecks({
    where,
    queue: stateOf(runningBatch()),
    checked,
    members: [],
    rule: null,
    head,
    now: new Date(minutes(5)),
  });

describe('merge-queue intake: checks on a batch', () => {
  it('records the verdict of the running batch whose draft it is', () => {
    const batch = batchOf(runningBatch(), 1);
    expect(judge(draft('draft-0', [check('success')]))).toEqual({
      kind: 'checks_reported',
      ...where,
      batchId: batch.id,
      attempt: 0,
      conclusion: 'success',
      unsuccessfulChecks: [],
    });
    expect(judge(draft('draft-0', [check('success'), check('failure', 'lint')]))).toMatchObject({
      conclusion: 'failure',
      unsuccessfulChecks: [expect.objectContaining({ name: 'lint' })],
    });
  });

  it('waits while checks run, and ignores a snapshot of another commit when judging from a change', () => {
    expect(judge(draft('draft-0', [check('pending')]))).toBeNull();
    expect(judge(draft('elsewhere', [check('success')]), 'checked head')).toBeNull();
    expect(judge({ ...draft('draft-0', [check('success')]), number: 901 })).toBeNull();
  });
});

describe('merge-queue intake: a push to the base', () => {
  it('is the queue’s own merge in flight when a passed batch’s next pull request merged into it', () => {
    let history = runningBatch();
    history = then(history, checksReported(history, 1, 2, 'success'));
    const state = stateOf(history);
    expect(mergesInFlight(state, 'm'.repeat(40))).toEqual([1]);
    expect(decideBasePush(where, 'm'.repeat(40), [{ merged: true, mergeCommitSha: 'm'.repeat(40) }])).toEqual(
      [],
    );
  });

  it('moves the base otherwise (an external push)', () => {
    expect(mergesInFlight(stateOf(runningBatch()), 'e'.repeat(40))).toEqual([]);
    expect(decideBasePush(where, 'e'.repeat(40), [{ merged: false, mergeCommitSha: null }])).toEqual([
      { kind: 'base_moved', ...where, sha: 'e'.repeat(40) },
    ]);
  });

  it('looks nothing up for a commit the queue knows it merged itself', () => {
    let history = runningBatch();
    history = then(history, checksReported(history, 1, 2, 'success'));
    history = then(history, {
      kind: 'merged',
      ...where,
      pullRequest: 1,
      mergeCommitSha: 'm'.repeat(40),
    });
    expect(mergesInFlight(stateOf(history), 'm'.repeat(40))).toEqual([]);
  });
});

describe('merge-queue intake: pause and scopes', () => {
  const queues = [
    { repository: REPOSITORY, baseRef: 'main' },
    { repository: REPOSITORY, baseRef: 'release' },
  ];

  it('a pause reaches every queue of the repository, its end too (without a reason)', () => {
    expect(pauseCommands(queues, { paused: true, reason: 'release' }, 1)).toEqual([
      { kind: 'set_pause', repository: REPOSITORY, baseRef: 'main', at: 1, paused: true, reason: 'release' },
      {
        kind: 'set_pause',
        repository: REPOSITORY,
        baseRef: 'release',
        at: 1,
        paused: true,
        reason: 'release',
      },
    ]);
    expect(pauseCommands(queues.slice(0, 1), { paused: false, reason: 'release' }, 1)).toEqual([
      { kind: 'set_pause', repository: REPOSITORY, baseRef: 'main', at: 1, paused: false, reason: null },
    ]);
  });

  it('scopes reach the queues that hold the pull request', () => {
    const holding = stateOf(run([configure(policyWith()), enqueue(1, 0)]).events);
    const empty = stateOf(run([configure(policyWith())]).events);
    const reported = { pullRequest: 1, scopes: ['api'], allScopes: false };
    expect(
      scopesCommands(
        [
          { ...queues[0]!, state: holding },
          { ...queues[1]!, state: empty },
        ],
        reported,
        1,
      ),
    ).toEqual([{ kind: 'set_scopes', repository: REPOSITORY, baseRef: 'main', at: 1, ...reported }]);
  });
});
