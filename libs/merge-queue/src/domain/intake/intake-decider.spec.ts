import type { PullRequestSnapshot } from '@switchyard/code-host';
import type { CommandAccepted } from '@switchyard/code-host/pull-requests';
import { validateConfiguration, type MergifyConfiguration } from '@switchyard/config';
import { pullRequestSnapshotFixture } from '@switchyard/config/conditions';
import {
  batchOf,
  checksReported,
  command,
  configure,
  enqueue,
  leaves,
  minutes,
  policyWith,
  REPOSITORY,
  run,
  stateOf,
  then,
  withDrafts,
} from '../../testing/queue-commands';
import type { CommandOrigin, MergeQueueCommand } from '../commands';
import type { DequeueCode, MergeQueueEvent } from '../events';
import { PRIORITY } from '../policy';
import { decideIntake, type IntakeFact } from './intake-decider';
import { INVALID_CONFIGURATION_TITLE, invalidConfigurationCheck } from './invalid-configuration';

const HEAD = 'a'.repeat(40);
const NEW_HEAD = 'c'.repeat(40);
const NOW = 30;

function configurationOf(yaml: string): MergifyConfiguration {
  const validation = validateConfiguration(yaml, new Date('2026-11-28T00:00:00Z'));
  if (!validation.valid) throw new Error(`invalid test configuration: ${yaml}`);
  return validation.configuration;
}

/** The label-driven configuration of the issue: a pull request rule queues what is labelled `ready`. */
const LABEL_RULE = configurationOf(
  [
    'pull_request_rules:',
    '  - name: automatic queue',
    '    conditions: [label=ready]',
    '    actions:',
    '      queue:',
  ].join('\n'),
);
/** The same label named in the queue's own conditions: removing it takes the pull request out. */
const LABEL_QUEUE_CONDITION = configurationOf(
  [
    'queue_rules:',
    '  - name: default',
    '    queue_conditions: [label=ready]',
    'pull_request_rules:',
    '  - name: automatic queue',
    '    conditions: [label=ready]',
    '    actions:',
    '      queue:',
  ].join('\n'),
);

const pullRequest = (overrides: Partial<PullRequestSnapshot> = {}): PullRequestSnapshot =>
  pullRequestSnapshotFixture({
    repository: { owner: 'acme', name: 'mono', fullName: REPOSITORY, defaultBranch: 'main' },
    number: 7,
    labels: ['ready'],
    head: { ref: 'feature', sha: HEAD, repositoryFullName: REPOSITORY },
    base: { ref: 'main', sha: 'b'.repeat(40), repositoryFullName: REPOSITORY },
    ...overrides,
  });

const changed = (action: string): IntakeFact => ({ kind: 'pull_request_changed', action });

const accepted = (word: CommandAccepted['data']['command'], argument: string | null = null): IntakeFact => ({
  kind: 'command',
  command: {
    repository: REPOSITORY,
    number: 7,
    command: word,
    argument,
    author: { login: 'octocat', id: 583231, type: 'User' },
    commentId: 99,
    commentUrl: 'https://github.com/acme/mono/pull/7#issuecomment-99',
    permission: 'write',
    at: new Date(minutes(NOW)).toISOString(),
  },
});

const origin = (word: string): CommandOrigin => ({
  command: word,
  author: { login: 'octocat', id: 583231, type: 'User' },
  commentId: 99,
  commandTrigger: 'comment',
  triggerCommentUrl: 'https://github.com/acme/mono/pull/7#issuecomment-99',
});

const where = { repository: REPOSITORY, baseRef: 'main', at: minutes(NOW) };

/** What the rule's `queue` action asks for #7 at HEAD (or another head). */
const enqueued = (overrides: Partial<Extract<MergeQueueCommand, { kind: 'enqueue' }>> = {}) => ({
  kind: 'enqueue',
  ...where,
  pullRequest: 7,
  queueName: 'default',
  priority: PRIORITY.medium,
  priorityRuleName: null,
  allowCheckInterruption: false,
  headSha: HEAD,
  scopes: [],
  allScopes: false,
  dependsOn: [],
  trigger: 'Rule: automatic queue',
  ...overrides,
});

const dequeued = (code: DequeueCode, reason: string) => ({
  kind: 'dequeue',
  ...where,
  pullRequest: 7,
  code,
  reason,
  trigger: 'merge queue internal',
});

/**
 * given(the queue's events).when(a fact about #7, its snapshot).then(the commands the intake issues).
 * The queue's history is written as the commands that made it, run through the real queue decider.
 */
const intake = {
  given(history: MergeQueueEvent[] = run([configure(policyWith())]).events) {
    return {
      when(
        fact: IntakeFact,
        snapshot = pullRequest(),
        configuration: MergifyConfiguration | null = LABEL_RULE,
        problem: string | null = null,
      ) {
        const scene = () => ({
          snapshot,
          queue: stateOf(history),
          scopes: { scopes: [], allScopes: false },
          configuration: { configuration, defaultQueueName: 'default', problem },
          now: new Date(minutes(NOW)),
        });
        const decided = () => decideIntake(fact, scene());
        return {
          then: (expected: unknown[]) => expect(decided()).toEqual(expected),
          thenNothing: () => expect(decided()).toEqual([]),
          /** The failing check the pull request is shown, or null. */
          check: () => invalidConfigurationCheck(fact, scene()),
        };
      },
    };
  },
};

const refreshed = {
  kind: 'refresh',
  ...where,
  pullRequest: 7,
  priority: PRIORITY.medium,
  priorityRuleName: null,
  allowCheckInterruption: false,
};

const queuedByRule = (headSha = HEAD) =>
  run([configure(policyWith()), enqueue(7, 0, { headSha, trigger: 'Rule: automatic queue' })]).events;

/** #7 queued by the rule at HEAD, checked alone on a draft, and its checks reported. */
const checked = (conclusion: 'success' | 'failure', policy = policyWith()) => {
  const history = withDrafts(
    run([configure(policy), enqueue(7, 0, { headSha: HEAD, trigger: 'Rule: automatic queue' })]).events,
    1,
  );
  return then(history, checksReported(history, 7, 2, conclusion));
};

/** The ways a pull request leaves for good, each through the queue's own decisions. */
const leftFor: Record<string, () => MergeQueueEvent[]> = {
  CHECKS_FAILED: () => checked('failure'),
  CHECKS_TIMEOUT: () => {
    const history = withDrafts(
      run([
        configure(policyWith({}, { checksTimeout: 60 })),
        enqueue(7, 0, { headSha: HEAD, trigger: 'Rule: automatic queue' }),
      ]).events,
      1,
    );
    return then(history, command('tick', 3, {}));
  },
  CONFLICT_WITH_BASE_BRANCH: () => {
    const history = queuedByRule();
    const batch = batchOf(history, 7);
    return then(
      history,
      command('draft_failed', 1, {
        batchId: batch.id,
        attempt: batch.attempt,
        failure: { kind: 'conflict', pullRequest: 7, withBase: true },
      }),
    );
  },
  CONFLICT_WITH_PULL_AHEAD: () => {
    // #1 ahead, #7 checked on top of it: #7 does not merge onto #1's changes, then #1 merges.
    let history = run([
      configure(policyWith({ maxParallelChecks: 2 })),
      enqueue(1, 0),
      enqueue(7, 0, { headSha: HEAD, trigger: 'Rule: automatic queue' }),
    ]).events;
    const blocked = batchOf(history, 7);
    history = then(
      history,
      command('draft_failed', 1, {
        batchId: blocked.id,
        attempt: blocked.attempt,
        failure: { kind: 'conflict', pullRequest: 7, withBase: false },
      }),
    );
    history = withDrafts(history, 1);
    history = then(history, checksReported(history, 1, 2, 'success'));
    return then(history, command('merged', 3, { pullRequest: 1, mergeCommitSha: 'm'.repeat(40) }));
  },
};

describe('merge-queue intake: a queue rule', () => {
  it('queues a pull request its conditions match, at its head, by the rule', () => {
    intake.given().when(changed('labeled')).then([enqueued()]);
  });

  it('queues it once: a pull request already queued is only judged again (priority)', () => {
    intake
      .given(queuedByRule())
      .when(changed('labeled'))
      .then([
        {
          kind: 'refresh',
          ...where,
          pullRequest: 7,
          priority: PRIORITY.medium,
          priorityRuleName: null,
          allowCheckInterruption: false,
        },
      ]);
  });

  it('queues nothing that does not match, is a draft or is closed', () => {
    intake
      .given()
      .when(changed('opened'), pullRequest({ labels: [] }))
      .thenNothing();
    intake
      .given()
      .when(changed('labeled'), pullRequest({ draft: true }))
      .thenNothing();
    intake
      .given()
      .when(changed('labeled'), pullRequest({ state: 'closed' }))
      .thenNothing();
    intake.given().when(changed('labeled'), pullRequest(), null).thenNothing();
  });

  it('carries the stack a pull request declares (Depends-On)', () => {
    intake
      .given()
      .when(changed('labeled'), pullRequest({ body: 'Part two.\n\nDepends-On: #5\n' }))
      .then([enqueued({ dependsOn: [5] })]);
  });
});

describe('merge-queue intake: the re-queue rule', () => {
  for (const code of Object.keys(leftFor)) {
    describe(`after a leave with ${code}`, () => {
      const history = () => {
        const events = leftFor[code]!();
        expect(leaves(events)).toContainEqual([7, code]);
        return events;
      };

      it('no rule queues it again while its head is the one that left', () => {
        intake.given(history()).when(changed('labeled')).thenNothing();
        intake.given(history()).when(changed('read')).thenNothing();
      });

      it('a new head lets the rule queue it again', () => {
        const pushed = pullRequest({
          head: { ref: 'feature', sha: NEW_HEAD, repositoryFullName: REPOSITORY },
        });
        intake
          .given(history())
          .when(changed('synchronize'), pushed)
          .then([enqueued({ headSha: NEW_HEAD })]);
      });

      it('@mergify queue and @mergify requeue queue it again as it is', () => {
        intake
          .given(history())
          .when(accepted('queue'))
          .then([enqueued({ trigger: 'Command: queue', origin: origin('queue') })]);
        intake
          .given(history())
          .when(accepted('requeue'))
          .then([enqueued({ trigger: 'Command: requeue', origin: origin('requeue') })]);
      });
    });
  }

  it('remembers the leave from the events alone: a replay of the stream, or its snapshot, knows it', () => {
    const events = leftFor.CHECKS_FAILED!();
    const replayed = JSON.parse(JSON.stringify(stateOf(events))) as ReturnType<typeof stateOf>;
    expect(replayed.departures?.[7]).toEqual({ code: 'CHECKS_FAILED', headSha: HEAD, leftAt: minutes(2) });
  });

  it('a stay that began by a command and ended otherwise lifts the hold', () => {
    // Failed, queued again by a command, then taken out because its queue conditions stopped holding.
    let history = leftFor.CHECKS_FAILED!();
    history = then(history, enqueue(7, 5, { headSha: HEAD, trigger: 'Command: queue' }));
    history = then(
      history,
      command('dequeue', 6, { pullRequest: 7, code: 'PR_DEQUEUED', reason: 'conditions', trigger: 'x' }),
    );
    intake.given(history).when(changed('labeled')).then([enqueued()]);
  });

  it('after @mergify dequeue, only a command queues it again, whatever its head', () => {
    const history = then(
      queuedByRule(),
      command('dequeue', 1, {
        pullRequest: 7,
        code: 'PR_MANUALLY_DEQUEUED',
        reason: 'Dequeued by @octocat',
        trigger: 'Command: dequeue',
      }),
    );
    intake.given(history).when(changed('unlabeled')).thenNothing();
    const pushed = pullRequest({ head: { ref: 'feature', sha: NEW_HEAD, repositoryFullName: REPOSITORY } });
    intake.given(history).when(changed('synchronize'), pushed).thenNothing();
    intake
      .given(history)
      .when(accepted('queue'), pushed)
      .then([enqueued({ headSha: NEW_HEAD, trigger: 'Command: queue', origin: origin('queue') })]);
  });

  it('a pull request that left because its queue conditions stopped holding comes back when they hold again', () => {
    const history = then(
      queuedByRule(),
      command('dequeue', 1, { pullRequest: 7, code: 'PR_DEQUEUED', reason: 'conditions', trigger: 'x' }),
    );
    intake.given(history).when(changed('labeled'), pullRequest(), LABEL_QUEUE_CONDITION).then([enqueued()]);
  });
});

describe('merge-queue intake: a queued pull request', () => {
  it('leaves when its head changes (PULL_REQUEST_UPDATED)', () => {
    const pushed = pullRequest({ head: { ref: 'feature', sha: NEW_HEAD, repositoryFullName: REPOSITORY } });
    intake
      .given(queuedByRule())
      .when(changed('synchronize'), pushed)
      .then([dequeued('PULL_REQUEST_UPDATED', 'The pull request was updated (new head ccccccc)')]);
  });

  it("stays when a label's webhook shows another head (the push's own webhook decides)", () => {
    const pushed = pullRequest({ head: { ref: 'feature', sha: NEW_HEAD, repositoryFullName: REPOSITORY } });
    intake.given(queuedByRule()).when(changed('labeled'), pushed).then([refreshed]);
  });

  it('checked in place, stays while the queue moves its head, and leaves when someone else pushes', () => {
    // One check at a time, batches of one: the queue updates the pull request itself.
    const preparing = run([
      configure(policyWith({ maxParallelChecks: 1 })),
      enqueue(7, 0, { headSha: HEAD, trigger: 'Rule: automatic queue' }),
    ]).events;
    expect(batchOf(preparing, 7)).toMatchObject({ checkMethod: 'in_place', phase: 'preparing' });
    const updated = pullRequest({ head: { ref: 'feature', sha: NEW_HEAD, repositoryFullName: REPOSITORY } });
    intake.given(preparing).when(changed('synchronize'), updated).then([refreshed]);

    const batch = batchOf(preparing, 7);
    const running = then(
      preparing,
      command('draft_created', 1, { batchId: batch.id, attempt: 0, checkPullRequest: 7, headSha: NEW_HEAD }),
    );
    intake.given(running).when(changed('synchronize'), updated).then([refreshed]);
    const foreign = pullRequest({
      head: { ref: 'feature', sha: 'd'.repeat(40), repositoryFullName: REPOSITORY },
    });
    intake
      .given(running)
      .when(changed('synchronize'), foreign)
      .then([dequeued('PULL_REQUEST_UPDATED', 'The pull request was updated (new head ddddddd)')]);
  });

  it('leaves when a label its queue conditions name is removed; a pull request rule alone does not take it out', () => {
    const unlabelled = pullRequest({ labels: [] });
    intake
      .given(queuedByRule())
      .when(changed('unlabeled'), unlabelled, LABEL_QUEUE_CONDITION)
      .then([dequeued('PR_DEQUEUED', 'The pull request no longer meets the queue conditions')]);
    intake
      .given(queuedByRule())
      .when(changed('unlabeled'), unlabelled, LABEL_RULE)
      .then([
        {
          kind: 'refresh',
          ...where,
          pullRequest: 7,
          priority: PRIORITY.medium,
          priorityRuleName: null,
          allowCheckInterruption: false,
        },
      ]);
  });

  it('leaves when closed', () => {
    intake
      .given(queuedByRule())
      .when(changed('closed'), pullRequest({ state: 'closed' }))
      .then([dequeued('PR_DEQUEUED', 'The pull request was closed')]);
  });

  it('recognises the queue’s own merge in flight, and a merge by someone else', () => {
    const merged = pullRequest({ state: 'closed', merged: true, mergeCommitSha: 'f'.repeat(40) });
    intake.given(checked('success')).when(changed('closed'), merged).thenNothing();
    intake
      .given(queuedByRule())
      .when(changed('closed'), merged)
      .then([{ kind: 'merged_outside_queue', ...where, pullRequest: 7, sha: 'f'.repeat(40) }]);
  });
});

describe('merge-queue intake: commands', () => {
  it('@mergify dequeue takes it out, logged as the command', () => {
    intake
      .given(queuedByRule())
      .when(accepted('dequeue'))
      .then([
        {
          ...dequeued('PR_MANUALLY_DEQUEUED', 'Dequeued by @octocat'),
          trigger: 'Command: dequeue',
          origin: origin('dequeue'),
        },
      ]);
  });

  it('@mergify queue <name> goes to that queue only if its conditions admit it', () => {
    const twoQueues = configurationOf(
      ['queue_rules:', '  - name: urgent', '    queue_conditions: [label=urgent]', '  - name: default'].join(
        '\n',
      ),
    );
    intake.given().when(accepted('queue', 'urgent'), pullRequest(), twoQueues).thenNothing();
    intake
      .given()
      .when(accepted('queue', 'urgent'), pullRequest({ labels: ['urgent'] }), twoQueues)
      .then([enqueued({ queueName: 'urgent', trigger: 'Command: queue urgent', origin: origin('queue') })]);
    intake.given().when(accepted('queue', 'nowhere'), pullRequest(), twoQueues).thenNothing();
  });

  it('@mergify requeue <name>, an alias of queue, goes to that queue too', () => {
    const twoQueues = configurationOf(
      ['queue_rules:', '  - name: urgent', '    queue_conditions: [label=urgent]', '  - name: default'].join(
        '\n',
      ),
    );
    intake
      .given()
      .when(accepted('requeue', 'urgent'), pullRequest({ labels: ['urgent'] }), twoQueues)
      .then([
        enqueued({ queueName: 'urgent', trigger: 'Command: requeue urgent', origin: origin('requeue') }),
      ]);
  });

  it('a command without any configuration queues into the default queue', () => {
    intake
      .given()
      .when(accepted('queue'), pullRequest({ labels: [] }), null)
      .then([enqueued({ trigger: 'Command: queue', origin: origin('queue') })]);
  });

  it('refresh, or any command on a closed pull request, decides nothing here', () => {
    intake.given().when(accepted('refresh')).thenNothing();
    intake
      .given()
      .when(accepted('queue'), pullRequest({ state: 'closed' }))
      .thenNothing();
  });
});

describe('merge-queue intake: an invalid configuration (as Mergify: nothing new is taken in)', () => {
  const PROBLEM = [
    'The current Mergify configuration (.mergify.yml) is invalid:',
    '- queue_rules → 0 → speculative_checks (line 3, column 5): removed on 2025-06-24',
  ].join('\n');
  const failing = {
    name: 'Mergify Merge Queue',
    headSha: HEAD,
    title: INVALID_CONFIGURATION_TITLE,
    summary: PROBLEM,
  };

  it('queues nothing by rule, and shows the verdict on the pull request that asked', () => {
    const when = intake.given().when(changed('labeled'), pullRequest(), null, PROBLEM);
    when.thenNothing();
    expect(when.check()).toEqual(failing);
    expect(intake.given().when(changed('opened'), pullRequest(), null, PROBLEM).check()).toEqual(failing);
  });

  it('runs no command: @mergify queue queues nothing, and says why', () => {
    const when = intake.given().when(accepted('queue'), pullRequest({ labels: [] }), null, PROBLEM);
    when.thenNothing();
    expect(when.check()).toEqual(failing);
    intake.given(queuedByRule()).when(accepted('dequeue'), pullRequest(), null, PROBLEM).thenNothing();
  });

  it('leaves queued pull requests where they are (conditions it cannot read take none out), closing one still does', () => {
    const stays = intake
      .given(queuedByRule())
      .when(changed('unlabeled'), pullRequest({ labels: [] }), null, PROBLEM);
    stays.then([refreshed]);
    expect(stays.check()).toBeNull();
    intake
      .given(queuedByRule())
      .when(changed('closed'), pullRequest({ state: 'closed' }), null, PROBLEM)
      .then([dequeued('PR_DEQUEUED', 'The pull request was closed')]);
  });

  it('answers only what could have queued it: not every read, nor a closed pull request', () => {
    expect(intake.given().when(changed('read'), pullRequest(), null, PROBLEM).check()).toBeNull();
    expect(
      intake
        .given()
        .when(changed('labeled'), pullRequest({ state: 'closed' }), null, PROBLEM)
        .check(),
    ).toBeNull();
  });

  it('takes the pull request in once the file is valid again', () => {
    const fixed = intake.given().when(changed('configuration_fixed'), pullRequest(), LABEL_RULE, null);
    fixed.then([enqueued()]);
    expect(fixed.check()).toBeNull();
  });
});
