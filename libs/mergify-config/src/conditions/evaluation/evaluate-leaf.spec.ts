import type { CheckOnHead, PullRequestCommit, PullRequestSnapshot } from '@switchyard/code-host';
import type { ConditionLeaf } from '../condition-tree';
import { parseConditions } from '../syntax/parse-conditions';
import { pullRequestSnapshotFixture } from '../testing/pull-request-snapshot.fixture';
import type { ConditionContext } from './context';
import { evaluateLeaf } from './evaluate-leaf';

const NOW = new Date('2026-06-10T12:00:00Z');

const leaf = (text: string): ConditionLeaf => {
  const parsed = parseConditions(text);
  if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
  return parsed.condition as ConditionLeaf;
};

const check = (
  name: string,
  state: CheckOnHead['state'],
  appSlug: string | null = 'github-actions',
): CheckOnHead => ({
  name,
  appSlug,
  source: appSlug ? 'check-run' : 'status',
  state,
  detailsUrl: null,
  startedAt: null,
  completedAt: null,
});

const commit = (
  overrides: Partial<PullRequestCommit> & { login?: string; date?: string } = {},
): PullRequestCommit => {
  const { login = 'alice', date = '2026-05-01T00:00:00Z', ...rest } = overrides;
  return {
    sha: 'c'.repeat(40),
    message: 'Do a thing',
    author: { login, name: login.toUpperCase(), email: `${login}@example.com`, date },
    committer: { login, name: login.toUpperCase(), email: `${login}@example.com`, date },
    verified: true,
    parents: ['p'],
    ...rest,
  };
};

const pullRequest = pullRequestSnapshotFixture({
  number: 42,
  title: 'WIP: Add the launch checklist',
  body: '<!-- template: describe the change -->\nAdds the checklist.\n\nDepends-On: #7\nDepends-On: https://github.com/acme/engine/pull/9',
  author: 'Alice',
  milestone: 'v1.0',
  labels: ['bug', 'work-in-progress'],
  assignees: ['bob'],
  requestedReviewers: ['carol'],
  requestedTeams: ['@acme/security'],
  reviews: [
    { id: 1, author: 'dave', state: 'APPROVED', submittedAt: '2026-06-01T00:00:00Z', commitId: null },
    { id: 2, author: 'dave', state: 'COMMENTED', submittedAt: '2026-06-02T00:00:00Z', commitId: null },
    {
      id: 3,
      author: 'erin',
      state: 'CHANGES_REQUESTED',
      submittedAt: '2026-06-01T00:00:00Z',
      commitId: null,
    },
    { id: 4, author: 'frank', state: 'COMMENTED', submittedAt: '2026-06-01T00:00:00Z', commitId: null },
    { id: 5, author: 'grace', state: 'DISMISSED', submittedAt: '2026-06-01T00:00:00Z', commitId: null },
    { id: 6, author: 'heidi', state: 'APPROVED', submittedAt: '2026-06-01T00:00:00Z', commitId: null },
  ],
  files: [
    { filename: 'src/app.ts', previousFilename: null, status: 'modified', additions: 10, deletions: 2 },
    { filename: 'docs/guide.md', previousFilename: null, status: 'added', additions: 30, deletions: 0 },
    { filename: 'old/legacy.py', previousFilename: null, status: 'removed', additions: 0, deletions: 40 },
    {
      filename: 'ignored/guard.txt',
      previousFilename: 'critical/guard.txt',
      status: 'renamed',
      additions: 0,
      deletions: 0,
    },
    {
      filename: '.github/workflows/ci.yml',
      previousFilename: null,
      status: 'modified',
      additions: 1,
      deletions: 1,
    },
  ],
  commits: [
    commit({ message: 'First\n\nCo-authored-by: Zed <zed@example.com>', date: '2026-05-01T00:00:00Z' }),
    commit({ login: 'bob', message: 'Second', verified: false, date: '2026-06-01T00:00:00Z' }),
    commit({ message: 'Merge main', parents: ['a', 'b'], date: '2026-06-09T00:00:00Z' }),
  ],
  commitsBehind: 3,
  checks: [
    check('ci/build', 'success'),
    check('ci/lint', 'failure'),
    check('ci/e2e', 'pending'),
    check('ci/flaky', 'cancelled'),
    check('pep8', 'success', 'semantic-pull-request'),
    check('pep8', 'failure', 'github-actions'),
    check('coverage', 'neutral', null),
    check('docs', 'skipped'),
    check('old', 'stale'),
    check('slow', 'timed_out'),
  ],
  createdAt: '2026-05-01T10:00:00Z',
  updatedAt: '2026-06-08T12:00:00Z',
});

const context = (overrides: Partial<ConditionContext> = {}): ConditionContext => ({
  pullRequest,
  now: NOW,
  teams: { 'acme/core': ['Dave', 'heidi'], 'acme/security': ['ivan'] },
  queue: null,
  scopes: ['frontend', 'docs'],
  ...overrides,
});

const matches = (text: string, overrides: Partial<ConditionContext> = {}) =>
  evaluateLeaf(leaf(text), context(overrides)).match;

describe('evaluating one condition', () => {
  it.each([
    // Text: equality, aliases, negation, regex (search), glob, ordering, length.
    ['base=main', true],
    ['base:main', true],
    ['base==main', true],
    ['base!=main', false],
    ['base≠dev', true],
    ['-base=main', false],
    ['base~=^ma', true],
    ['base~=ai', true],
    ['base~=^ai', false],
    ['title~=(?i)^wip', true],
    ['title~=^wip', false],
    ['-title~=(?i)wip', false],
    ['head*=feature/*', true],
    ['head*=feature', false],
    ['base>=main', true],
    ['base>main', false],
    ['base<n', true],
    ['#title>10', true],
    ['#title=29', true],
    ['#base=4', true],
    ['author=alice', true],
    ['author=ALICE', true],
    ['author!=bob', true],
    ['author={{ author }}', true],
    ['assignee={{ author }}', false],
    ['body=Adds the checklist.\n\nDepends-On: #7\nDepends-On: https://github.com/acme/engine/pull/9', true],
    ['body~=^<!--', false],
    ['body-raw~=^<!--', true],
    ['milestone=v1.0', true],
    ['repository-name=rocket', true],
    ['repository-full-name=acme/rocket', true],
    ['head-repo-full-name=acme/rocket', true],
    ['merge-commit-sha=abc', false],
    ['merge-commit-sha!=abc', true],
    ['#merge-commit-sha=0', true],
    // Lists: any element for =, ~=, *=, ordering; none for !=.
    ['label=bug', true],
    ['label=enhancement', false],
    ['label!=work-in-progress', false],
    ['label!=enhancement', true],
    ['label~=^work', true],
    ['-label~=^work', false],
    ['label*=work-*', true],
    ['label>c', true],
    ['label<a', false],
    ['#label=2', true],
    ['#label>=3', false],
    ['-#label>=3', true],
    ['label="bug"', true],
    // Reviews.
    ['approved-reviews-by=dave', true],
    ['approved-reviews-by=DAVE', true],
    ['#approved-reviews-by>=2', true],
    ['#approved-reviews-by>=3', false],
    ['changes-requested-reviews-by=erin', true],
    ['commented-reviews-by=frank', true],
    ['commented-reviews-by=dave', false],
    ['dismissed-reviews-by=grace', true],
    ['review-requested=carol', true],
    ['review-requested=@acme/security', true],
    ['assignee=bob', true],
    // Teams.
    ['approved-reviews-by=@acme/core', true],
    ['approved-reviews-by=@core', true],
    ['approved-reviews-by!=@acme/core', false],
    ['author=@acme/core', false],
    ['author!=@acme/core', true],
    // Checks.
    ['check-success=ci/build', true],
    ['check-success=ci/lint', false],
    ['check-failure=ci/lint', true],
    ['check-failure=ci/flaky', true],
    ['check-failure=slow', true],
    ['check-cancelled=ci/flaky', true],
    ['check-timed-out=slow', true],
    ['check-pending=ci/e2e', true],
    ['check-neutral=coverage', true],
    ['check-success-or-neutral=coverage', true],
    ['check-skipped=docs', true],
    ['check-stale=old', true],
    ['check=ci/e2e', true],
    ['#check-success>=2', true],
    ['check-success~=^ci/', true],
    ['check-success=pep8', true],
    ['check-success=@semantic-pull-request/pep8', true],
    ['check-success=@github-actions/pep8', false],
    ['check-failure=@github-actions/pep8', true],
    ['-check-failure=@semantic-pull-request/pep8', true],
    // Files.
    ['files=src/app.ts', true],
    ['files=critical/guard.txt', true],
    ['files=ignored/guard.txt', true],
    ['files~=\\.py$', true],
    ['files*=src/**/*.ts', true],
    ['files*=**/*.{md,rst}', true],
    ['files*=*.ts', false],
    ['files*=.github/**', true],
    ['added-files=docs/guide.md', true],
    ['added-files=ignored/guard.txt', true],
    ['removed-files=old/legacy.py', true],
    ['removed-files~=^critical/', true],
    ['modified-files=src/app.ts', true],
    ['modified-files=ignored/guard.txt', false],
    ['#files=5', true],
    ['-files~=^critical/', false],
    ['#added-lines=41', true],
    ['#deleted-lines=43', true],
    ['#modified-lines=84', true],
    // Numbers, counts and Booleans.
    ['number=42', true],
    ['number>=43', false],
    ['number!=42', false],
    ['-number=42', false],
    ['#commits-behind>2', true],
    ['#commits-behind=0', false],
    ['#commits=3', true],
    ['#co-authors=2', true],
    ['draft', false],
    ['-draft', true],
    ['merged', false],
    ['closed', false],
    ['-closed', true],
    ['locked', false],
    ['conflict', false],
    ['linear-history', false],
    ['from-fork', false],
    ['mergify-configuration-changed', false],
    // Commits.
    ['commits[0].commit_message=First\n\nCo-authored-by: Zed <zed@example.com>', true],
    ['commits[-1].commit_message~=^Merge', true],
    ['commits[1].author=bob', true],
    ['commits[*].author=bob', true],
    ['commits[0].author=bob', false],
    ['commits[9].author=bob', false],
    ['commits[9].author!=bob', true],
    ['commits[*].author={{ author }}', true],
    ['commits[*].email_author=bob@example.com', true],
    ['commits[*].commit_verification_verified', true],
    ['-commits[1].commit_verification_verified', true],
    ['commits[1].commit_verification_verified=false', true],
    ['commits[*].commit_verification_verified!=false', false],
    ['commits[0].commit_verification_verified=TRUE', true],
    ['commits[*].date_committer<30 days ago', true],
    ['commits[-1].date_committer<30 days ago', false],
    ['commits-unverified=Second', true],
    // `commits` itself: each commit reads as its message (every operator, as the schema allows).
    ['commits~=^Merge', true],
    ['commits~=^Revert', false],
    ['commits*=First*', true],
    ['-commits=Do a thing', true],
    ['#commits-unverified=1', true],
    // Derived lists.
    ['depends-on=acme/rocket#7', true],
    ['depends-on=acme/engine#9', true],
    ['#depends-on=2', true],
    ['scope=frontend', true],
    ['scope!=backend', true],
    // Queue facts when not queued.
    ['queue-position=-1', true],
    ['queue-name=default', false],
    ['queue-name!=default', true],
    ['queue-dequeue-reason=none', true],
    ['queued-at<1 day ago', false],
    // Timestamps.
    ['created-at<2026-05-02', true],
    ['created-at>=2026-05-01T12:00:00[Europe/Paris]', true],
    ['created-at>2026-05-01T12:01:00+02:00', false],
    ['updated-at<1 day ago', true],
    ['updated-at<2 days ago', false],
    ['updated-at>=2 days 1 minute ago', true],
    ['updated-at>=1 day 23 hours 59 minutes ago', false],
    ['closed-at<1 day ago', false],
    ['merged-at>=2020-01-01', false],
    // Current date and time.
    ['current-datetime>=2026-06-10T12:00', true],
    ['current-datetime>2026-06-10T12:00', false],
    ['current-datetime<2026-06-10T14:00[Europe/Paris]', false],
    ['current-datetime<=2026-06-10T14:00[Europe/Paris]', true],
    ['current-datetime=2026-06-10T11:00/2026-06-10T12:00', true],
    ['current-datetime=2026-06-10T11:00/2026-06-10T11:59', false],
    ['current-datetime!=2026-06-10T11:00/2026-06-10T11:59', true],
    ['current-datetime=XXXX-06-10T13:00/XXXX-06-10T15:00[Europe/Paris]', true],
    ['current-datetime=XXXX-XX-XXT14:00/XXXX-XX-XXT15:00[Europe/Paris]', true],
    ['current-datetime=XXXX-XX-XXT15:00/XXXX-XX-XXT16:00[Europe/Paris]', false],
    ['current-datetime=2026-06-10/2026-06-10', true],
    ['current-datetime=2025-XX-10T00:00/2025-XX-10T23:59', false],
    ['current-datetime=XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]', false],
    // Schedules (2026-06-10 is a Wednesday; 12:00 UTC is 14:00 in Paris, 05:00 in Vancouver).
    ['schedule=Mon-Fri', true],
    ['schedule=Sat-Sun', false],
    ['schedule!=Sat-Sun', true],
    ['schedule=Wed', true],
    ['schedule=wednesday', true],
    ['schedule=3', true],
    ['schedule=Thu-Tue', false],
    ['schedule=09:00-19:00', true],
    ['schedule=12:00-12:00', true],
    ['schedule=12:01-19:00', false],
    ['schedule=Mon-Fri 09:00-19:00[America/Vancouver]', false],
    ['schedule=Mon-Fri 14:00-14:00[Europe/Paris]', true],
    ['schedule=22:00-13:00', true],
    ['schedule=22:00-11:00', false],
  ])('%s → %s', (text, expected) => expect(matches(text)).toBe(expected));

  describe('list edges', () => {
    const empty = { pullRequest: pullRequestSnapshotFixture({ labels: [] }) };
    it.each([
      ['label=bug', false],
      ['label~=.', false],
      ['label*=*', false],
      ['label>a', false],
      ['label!=bug', true],
      ['-label=bug', true],
      ['#label=0', true],
    ])('an empty list: %s → %s', (text, expected) => expect(matches(text, empty)).toBe(expected));

    it.each([
      ['milestone=v1', false],
      ['milestone!=v1', true],
      ['milestone~=.', false],
      ['#milestone=0', true],
      ['-milestone=v1', true],
    ])('an absent value (no milestone): %s → %s', (text, expected) =>
      expect(matches(text, { pullRequest: pullRequestSnapshotFixture() })).toBe(expected),
    );
  });

  describe('facts from outside the snapshot', () => {
    const queued = {
      queue: {
        name: 'hotfix',
        position: 0,
        queuedAt: '2026-06-10T11:00:00Z',
        mergeStartedAt: null,
        dequeueReason: 'CHECKS_FAILED',
      },
    };
    it.each([
      ['queue-position=0', true],
      ['queue-position>=1', false],
      ['queue-name=hotfix', true],
      ['queue-dequeue-reason=checks-failed', true],
      ['queue-dequeue-reason!=checks-failed', false],
      ['queue-dequeue-reason~=^CHECKS_', true],
      ['queued-at<30 minutes ago', true],
      ['queued-at<90 minutes ago', false],
      ['queue-merge-started-at<1 minute ago', false],
    ])('queued: %s → %s', (text, expected) => expect(matches(text, queued)).toBe(expected));

    it('reads the sender of a command, and says when there is none', () => {
      const command = { command: { login: 'Bob', permission: 'write' as const } };
      expect(matches('sender=bob', command)).toBe(true);
      expect(matches('sender={{ author }}', command)).toBe(false);
      expect(matches('sender-permission>=write', command)).toBe(true);
      expect(matches('sender-permission>write', command)).toBe(false);
      expect(matches('sender-permission<admin', command)).toBe(true);
      expect(evaluateLeaf(leaf('sender=bob'), context())).toEqual({
        match: false,
        error: '`sender` is only known when checking a command',
        relatedChecks: [],
        nextEvaluationAt: null,
      });
    });

    it('does not guess facts it was not given: the condition fails and says why, negated or not', () => {
      for (const text of [
        'github-review-decision=approved',
        '-deployment-success=prod',
        'review-threads-unresolved=1',
        '#updates>1',
      ]) {
        const verdict = evaluateLeaf(leaf(text), context());
        expect(verdict.match).toBe(false);
        expect(verdict.error).toMatch(/not known here/);
      }
      const noScopes = evaluateLeaf(leaf('-scope=docs'), context({ scopes: undefined }));
      expect(noScopes).toMatchObject({
        match: false,
        error: 'the scopes of this pull request are not known here',
      });
      const notCompared = context({ pullRequest: pullRequestSnapshotFixture({ commitsBehind: null }) });
      expect(evaluateLeaf(leaf('#commits-behind=0'), notCompared).error).toMatch(/not been compared/);
    });

    it('uses what it was given', () => {
      const extras: Partial<ConditionContext> = {
        reviewDecision: 'APPROVED',
        deployments: { success: ['prod'], failure: [] },
        reviewThreads: { resolved: ['t1'], unresolved: [] },
        updates: [{ headSha: 'a', timestamp: '2026-06-01T00:00:00Z' }],
      };
      for (const text of [
        'github-review-decision=approved',
        'deployment-success=prod',
        '#review-threads-unresolved=0',
        '#updates=1',
        // An update reads as its head SHA (the schema allows every operator on `updates`).
        'updates=a',
        'updates~=^a$',
        '-updates=b',
      ])
        expect(matches(text, extras)).toBe(true);
    });

    it('says when a team it must look up is unknown', () => {
      expect(evaluateLeaf(leaf('author=@acme/ghosts'), context())).toMatchObject({
        match: false,
        error: 'the members of team @acme/ghosts are not known',
      });
    });
  });

  describe('pull-request shapes', () => {
    const variant = (overrides: Partial<PullRequestSnapshot>) => ({
      pullRequest: pullRequestSnapshotFixture(overrides),
    });
    it.each([
      ['conflict', { mergeableState: 'dirty', mergeable: false }, true],
      ['from-fork', { head: { ref: 'x', sha: 'x', repositoryFullName: 'mallory/rocket' } }, true],
      [
        'mergify-configuration-changed',
        {
          files: [
            {
              filename: '.mergify.yml',
              previousFilename: null,
              status: 'modified' as const,
              additions: 1,
              deletions: 0,
            },
          ],
        },
        true,
      ],
      ['closed', { state: 'closed' as const }, true],
      ['merged', { merged: true }, true],
      ['merged-by=carol', { merged: true, mergedBy: 'carol' }, true],
      ['draft', { draft: true }, true],
      ['locked', { locked: true }, true],
      ['linear-history', { commits: [commit()] }, true],
      [
        'dependabot-dependency-name=lodash',
        {
          commits: [
            commit({
              message:
                'Bump lodash\n\n---\nupdated-dependencies:\n- dependency-name: lodash\n  dependency-type: direct:production\n  update-type: version-update:semver-patch\n...\n',
            }),
          ],
        },
        true,
      ],
      [
        'dependabot-update-type=version-update:semver-patch',
        {
          commits: [
            commit({
              message:
                'Bump\n\n---\nupdated-dependencies:\n- dependency-name: lodash\n  dependency-type: direct:production\n  update-type: version-update:semver-patch\n...\n',
            }),
          ],
        },
        true,
      ],
      [
        'dependabot-dependency-type=direct:production',
        {
          commits: [
            commit({
              message:
                'Bump\n\n---\nupdated-dependencies:\n- dependency-name: lodash\n  dependency-type: direct:production\n...\n',
            }),
          ],
        },
        true,
      ],
      ['#dependabot-dependency-name=0', { commits: [commit({ message: 'not dependabot' })] }, true],
    ])('%s on %j', (text, overrides, expected) =>
      expect(matches(text, variant(overrides as Partial<PullRequestSnapshot>))).toBe(expected),
    );
  });

  describe('related checks', () => {
    it.each([
      ['check-success=ci/build', ['ci/build']],
      ['check-success=@github-actions/pep8', ['pep8']],
      ['check-success~=^ci/', ['ci/build', 'ci/lint', 'ci/e2e', 'ci/flaky']],
      ['check-failure*=ci/*', ['ci/build', 'ci/lint', 'ci/e2e', 'ci/flaky']],
      ['#check-success>1', []],
      ['label=bug', []],
    ])('%s → %j', (text, checks) =>
      expect(evaluateLeaf(leaf(text), context()).relatedChecks).toEqual(checks),
    );
  });
});
