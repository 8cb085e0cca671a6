import fc from 'fast-check';
import { anyJson, jsonLeaf, renderJson } from '../hostile-json';
import { hostileString, oddInstant } from '../hostile-text';

/** A request to the sandbox forge's GitHub surface: method, path (encoded) and JSON body. */
export interface ForgeWrite {
  method: string;
  path: string;
  body?: string;
}

/** What the suite set up on the forge: a repository with an open pull request and a branch. */
export interface ForgeState {
  repository: string;
  pull: number;
  branch: string;
  head: string;
  commentId: number;
  checkRunId: number;
}

const sometimes = <T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 5, arbitrary: plausible },
    { weight: 2, arbitrary: jsonLeaf },
    { weight: 1, arbitrary: anyJson },
  );

const labelList = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.stringMatching(/^[a-z-]{1,12}$/), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(100, 101, 10_000)
      .map((count) => Array.from({ length: count }, (_, i) => `l${i}`)),
  },
  { weight: 1, arbitrary: fc.constantFrom(['x'.repeat(51)], 'bug', [{ name: 'ok' }, { name: 1 }]) },
);

const refName = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z]{1,10}$/).map((name) => `refs/heads/fz-${name}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'refs/heads/a\u0000b',
      'refs/heads/..',
      'refs/tags/v1',
      'heads/x',
      `refs/heads/${'x'.repeat(300)}`,
      'refs/heads/a b',
    ),
  },
  { weight: 1, arbitrary: hostileString.map((text) => `refs/heads/${text}`) },
);

const segment = (plausible: string) =>
  fc.oneof(
    { weight: 15, arbitrary: fc.constant(plausible) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('..', '.', '%2E%2E', '%00', 'a%00b', '%F0%9F', 'x'.repeat(120), 'a_b', '-'),
    },
  );

/**
 * Writes to the sandbox forge's routes (pull requests, labels, comments, reviews, review requests,
 * refs, contents, merges, check runs, statuses, collaborators, teams), with bodies mostly
 * plausible, sometimes hostile (NUL, lone surrogates, wrong types, 10,000 labels, year 10000), on
 * the suite's repository and now and then on names GitHub would not give.
 */
export function forgeWrites(state: ForgeState): fc.Arbitrary<ForgeWrite> {
  const [owner, name] = state.repository.split('/') as [string, string];
  const repo = fc.tuple(segment(owner), segment(name)).map(([o, n]) => `/sandbox/github/repos/${o}/${n}`);
  const pull = fc.oneof(
    { weight: 6, arbitrary: fc.constant(state.pull) },
    { weight: 1, arbitrary: fc.constantFrom(0, 999_999, 2 ** 31) },
  );
  const write = (
    method: string,
    path: fc.Arbitrary<string>,
    body?: fc.Arbitrary<Record<string, unknown>> | fc.Arbitrary<unknown>,
  ): fc.Arbitrary<ForgeWrite> =>
    fc.tuple(path, body ?? fc.constant(undefined)).map(([p, b]) => ({
      method,
      path: p,
      ...(b === undefined ? {} : { body: renderJson(b) }),
    }));
  /** A body of plausible values (a write that should go through), or with some of them spoiled. */
  const fields = (shape: Record<string, fc.Arbitrary<unknown>>) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.record(shape, { requiredKeys: Object.keys(shape) }) },
      {
        weight: 2,
        arbitrary: fc.record(
          Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, sometimes(value)])),
          { requiredKeys: [] },
        ),
      },
    );
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z ]{1,30}$/) },
    { weight: 1, arbitrary: hostileString },
  );
  return fc.oneof(
    write(
      'POST',
      repo.map((r) => `${r}/pulls`),
      fields({
        title: text,
        head: fc.constant(state.branch),
        base: fc.constant('main'),
        body: text,
        draft: fc.boolean(),
      }),
    ),
    write(
      'PATCH',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/pulls/${n}`),
      fields({
        title: text,
        body: text,
        state: fc.constantFrom('open', 'closed'),
        base: fc.constantFrom('main', 'nope'),
      }),
    ),
    write(
      'POST',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/issues/${n}/labels`),
      fc.oneof(fields({ labels: labelList }), labelList),
    ),
    write(
      'PUT',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/issues/${n}/labels`),
      fields({ labels: labelList }),
    ),
    write(
      'DELETE',
      fc
        .tuple(repo, pull, fc.constantFrom('bug', 'x%00', '%E2%82'))
        .map(([r, n, l]) => `${r}/issues/${n}/labels/${l}`),
    ),
    write(
      'POST',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/issues/${n}/comments`),
      fields({ body: fc.oneof(text, fc.constant('x'.repeat(70_000))) }),
    ),
    write(
      'PATCH',
      repo.map((r) => `${r}/issues/comments/${state.commentId}`),
      fields({ body: text }),
    ),
    write(
      'POST',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/pulls/${n}/reviews`),
      fields({
        event: fc.constantFrom('APPROVE', 'COMMENT', 'REQUEST_CHANGES', 'NOPE'),
        body: text,
        commit_id: fc.constantFrom(state.head, 'x'),
      }),
    ),
    write(
      'POST',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/pulls/${n}/requested_reviewers`),
      fields({
        reviewers: fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 20 }),
        team_reviewers: fc.array(text, { maxLength: 3 }),
      }),
    ),
    write(
      'POST',
      repo.map((r) => `${r}/git/refs`),
      fields({ ref: refName, sha: fc.constantFrom(state.head, '0'.repeat(40), 'nope') }),
    ),
    write(
      'PATCH',
      repo.map((r) => `${r}/git/refs/heads/${state.branch}`),
      fields({ sha: fc.constantFrom(state.head, '0'.repeat(40)), force: fc.boolean() }),
    ),
    write(
      'PUT',
      fc
        .tuple(repo, fc.constantFrom('docs/a.txt', 'a%00b', '..%2Fx', '.mergify.yml'))
        .map(([r, p]) => `${r}/contents/${p}`),
      fields({
        message: text,
        content: fc.constantFrom(
          'aGVsbG8K',
          'not base64!',
          Buffer.from('queue_rules: [\u0000]\n').toString('base64'),
        ),
        branch: fc.constantFrom(state.branch, 'nope'),
      }),
    ),
    write(
      'POST',
      repo.map((r) => `${r}/merges`),
      fields({
        base: fc.constantFrom(state.branch, 'main'),
        head: fc.constantFrom('main', state.head, 'nope'),
        commit_message: text,
      }),
    ),
    write(
      'POST',
      repo.map((r) => `${r}/check-runs`),
      fields({
        name: text,
        head_sha: fc.constantFrom(state.head, 'x'),
        status: fc.constantFrom('queued', 'completed', 'nope'),
        conclusion: fc.constantFrom('success', 'failure', 'nope'),
        started_at: oddInstant,
        completed_at: oddInstant,
        details_url: text,
        output: fields({ title: text, summary: text }),
      }),
    ),
    write(
      'PATCH',
      repo.map((r) => `${r}/check-runs/${state.checkRunId}`),
      fields({
        status: fc.constantFrom('in_progress', 'completed'),
        conclusion: fc.constantFrom('success', 'neutral'),
        completed_at: oddInstant,
      }),
    ),
    write(
      'POST',
      fc.tuple(repo, fc.constantFrom(state.head, 'nope')).map(([r, sha]) => `${r}/statuses/${sha}`),
      fields({
        state: fc.constantFrom('success', 'pending', 'error', 'nope'),
        context: text,
        target_url: text,
        description: text,
      }),
    ),
    write(
      'PUT',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/pulls/${n}/merge`),
      fields({
        merge_method: fc.constantFrom('merge', 'squash', 'rebase', 'nope'),
        sha: fc.constantFrom(state.head, 'x'),
        commit_title: text,
      }),
    ),
    write(
      'PUT',
      fc.tuple(repo, pull).map(([r, n]) => `${r}/pulls/${n}/update-branch`),
      fields({ expected_head_sha: fc.constantFrom(state.head, 'x') }),
    ),
    write(
      'PUT',
      fc
        .tuple(repo, fc.constantFrom('rita', 'a%00', 'x'.repeat(50)))
        .map(([r, u]) => `${r}/collaborators/${u}`),
      fields({ permission: fc.constantFrom('push', 'admin', 'nope') }),
    ),
    write(
      'POST',
      fc.constant(`/sandbox/github/orgs/${owner}/teams`),
      fields({ name: text, description: text }),
    ),
  );
}
