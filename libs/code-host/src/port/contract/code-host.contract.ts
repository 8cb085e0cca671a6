import type { CodeHost, RepositoryCoordinates } from '../code-host';
import { isCodeHostError, type CodeHostErrorKind } from '../code-host-error';

/**
 * What a test set-up gives the contract suite: a code host, and ways to put content and teams in
 * place that the port itself does not offer (a code host is not where commits are authored).
 */
export interface CodeHostContractFixture {
  codeHost: CodeHost;
  /** A repository nobody else uses, with a `main` branch (empty or not). */
  newRepository(label: string): Promise<RepositoryCoordinates>;
  /** Commits `content` at `path` on `branch` (creating or replacing the file); answers the commit sha. */
  commitFile(
    repository: RepositoryCoordinates,
    branch: string,
    path: string,
    content: string,
  ): Promise<string>;
  /** Opens a ready-for-review pull request (the port opens only drafts, which GitHub never merges). */
  openPullRequest(repository: RepositoryCoordinates, head: string, base: string): Promise<number>;
  /** Comments on a pull request as another account than the code host's (a teammate). */
  commentAsAnotherUser(repository: RepositoryCoordinates, number: number, body: string): Promise<void>;
  /** Creates `@org/team` (when missing) and adds `login` to it. */
  addTeamMember(org: string, team: string, login: string): Promise<void>;
  /** Called after each test: e.g. fail on requests or answers that drift from GitHub's description. */
  afterEach?(): void;
}

/**
 * The behaviour every CodeHost adapter must show, written against the port alone. Run it with a
 * fixture: `describeCodeHostContract('Octokit against the sandbox', () => fixture)`.
 */
export function describeCodeHostContract(name: string, fixture: () => CodeHostContractFixture): void {
  describe(`CodeHost contract: ${name}`, () => {
    const host = () => fixture().codeHost;
    afterEach(() => fixture().afterEach?.());

    async function withFeature(label: string) {
      const f = fixture();
      const repository = await f.newRepository(label);
      const base = await f.commitFile(repository, 'main', 'README.md', 'hello\n');
      await host().createBranch(repository, 'feature', base);
      const head = await f.commitFile(repository, 'feature', 'src/feature.txt', 'feature\n');
      return { repository, base, head };
    }

    it('reads a repository and its branch heads; a missing branch is not-found', async () => {
      const { repository, base, head } = await withFeature('heads');
      const ref = await host().getRepository(repository);
      expect(ref).toMatchObject({ owner: repository.owner, name: repository.name, defaultBranch: 'main' });
      expect(await host().getBranchHead(repository, 'main')).toEqual({ name: 'main', sha: base });
      expect(await host().getBranchHead(repository, 'feature')).toEqual({ name: 'feature', sha: head });
      await expectKind(host().getBranchHead(repository, 'no-such-branch'), 'not-found');
    });

    it('reads the configuration in the documented order, at the default branch or a ref', async () => {
      const f = fixture();
      const repository = await f.newRepository('config');
      await f.commitFile(repository, 'main', 'README.md', 'hello\n');
      expect(await host().getConfiguration(repository)).toBeNull();

      await f.commitFile(repository, 'main', '.github/mergify.yml', 'queue_rules: [] # github\n');
      expect(await host().getConfiguration(repository)).toMatchObject({
        path: '.github/mergify.yml',
        content: 'queue_rules: [] # github\n',
        ref: null,
      });
      const beforeRoot = (await host().getBranchHead(repository, 'main')).sha;
      await f.commitFile(repository, 'main', '.mergify/config.yml', 'queue_rules: [] # dir\n');
      expect((await host().getConfiguration(repository))?.path).toBe('.mergify/config.yml');
      await f.commitFile(repository, 'main', '.mergify.yml', 'queue_rules: [] # root\n');
      const atMain = await host().getConfiguration(repository);
      expect(atMain).toMatchObject({ path: '.mergify.yml', content: 'queue_rules: [] # root\n' });
      expect(atMain?.sha).toMatch(/^[0-9a-f]{40}$/);

      expect(await host().getConfiguration(repository, beforeRoot)).toMatchObject({
        path: '.github/mergify.yml',
        ref: beforeRoot,
      });
    });

    it('creates, moves and deletes branches; a taken name or a non-fast-forward move is a conflict', async () => {
      const { repository, base, head } = await withFeature('branches');
      await expectKind(host().createBranch(repository, 'feature', base), 'conflict');
      expect(await host().createBranch(repository, 'copy', base)).toEqual({ name: 'copy', sha: base });
      expect(await host().updateBranch(repository, 'copy', head)).toEqual({ name: 'copy', sha: head });
      await expectKind(host().updateBranch(repository, 'copy', base), 'conflict');
      expect(await host().updateBranch(repository, 'copy', base, { force: true })).toEqual({
        name: 'copy',
        sha: base,
      });
      await host().deleteBranch(repository, 'copy');
      await expectKind(host().getBranchHead(repository, 'copy'), 'not-found');
    });

    it('compares two refs', async () => {
      const { repository, base, head } = await withFeature('compare');
      expect(await host().compare(repository, 'main', 'feature')).toEqual({
        status: 'ahead',
        aheadBy: 1,
        behindBy: 0,
        mergeBaseSha: base,
        files: ['src/feature.txt'],
      });
      expect(await host().compare(repository, 'feature', 'main')).toMatchObject({
        status: 'behind',
        behindBy: 1,
      });
      expect(await host().compare(repository, head, head)).toMatchObject({ status: 'identical', aheadBy: 0 });
    });

    it('opens a draft pull request and reads it whole: labels, comments, check runs; then closes it', async () => {
      const { repository, base, head } = await withFeature('draft');
      const created = await host().createDraftPullRequest(repository, {
        title: 'Queue batch',
        body: 'Checks a batch',
        head: 'feature',
        base: 'main',
      });
      expect(created.headSha).toBe(head);

      expect(await host().addLabels(repository, created.number, ['queued', 'batch'])).toEqual(
        expect.arrayContaining(['queued', 'batch']),
      );
      await host().removeLabel(repository, created.number, 'batch');
      await host().removeLabel(repository, created.number, 'never-there');
      const comment = await host().comment(repository, created.number, 'Batch started');
      expect(comment.id).toEqual(expect.any(Number));

      const run = await host().createCheckRun(repository, {
        name: 'Queue: batch',
        headSha: head,
        status: 'in_progress',
        output: { title: 'Running', summary: 'The batch runs' },
      });
      await host().updateCheckRun(repository, run.id, {
        status: 'completed',
        conclusion: 'success',
        output: { title: 'Passed', summary: 'The batch passed' },
      });

      const snapshot = await host().getPullRequest(repository, created.number);
      expect(snapshot).toMatchObject({
        number: created.number,
        title: 'Queue batch',
        body: 'Checks a batch',
        draft: true,
        state: 'open',
        merged: false,
        labels: ['queued'],
        base: { ref: 'main', sha: base },
        head: { ref: 'feature', sha: head },
        files: [{ filename: 'src/feature.txt', status: 'added', previousFilename: null }],
        commitsBehind: 0,
        repository: { owner: repository.owner, name: repository.name, defaultBranch: 'main' },
      });
      expect(snapshot.commits.map((commit) => commit.sha)).toEqual([head]);
      expect(snapshot.checks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Queue: batch', source: 'check-run', state: 'success' }),
        ]),
      );

      // The summary is the same pull request in one call, without what takes the other six.
      const { result: summary, usage } = await host().metered(() =>
        host().getPullRequestSummary(repository, created.number),
      );
      expect(usage.byOperation).toEqual({ getPullRequestSummary: { calls: 1, writes: 0 } });
      expect(summary).toMatchObject({
        number: created.number,
        title: snapshot.title,
        author: snapshot.author,
        draft: true,
        state: 'open',
        merged: false,
        mergeCommitSha: snapshot.mergeCommitSha,
        labels: ['queued'],
        base: snapshot.base,
        head: snapshot.head,
        repository: snapshot.repository,
      });
      for (const part of ['reviews', 'files', 'commits', 'checks', 'commitsBehind'])
        expect(summary).not.toHaveProperty(part);

      await host().closePullRequest(repository, created.number);
      expect((await host().getPullRequest(repository, created.number)).state).toBe('closed');
      expect((await host().getPullRequestSummary(repository, created.number)).state).toBe('closed');
      await expectKind(host().getPullRequest(repository, 999_999), 'not-found');
      await expectKind(host().getPullRequestSummary(repository, 999_999), 'not-found');
    });

    it("lists a pull request's comments, tells its own apart, and edits one in place (an edit, not a new comment)", async () => {
      const f = fixture();
      const { repository } = await withFeature('comments');
      const number = await f.openPullRequest(repository, 'feature', 'main');
      const first = await host().comment(repository, number, 'Queued');
      await f.commentAsAnotherUser(repository, number, '<!-- status -->\nnot the service');
      const status = await host().comment(repository, number, '<!-- status -->\nChecks started');

      const { result: edited, usage } = await host().metered(() =>
        host().updateComment(repository, status.id, '<!-- status -->\nMerged\n\nEarlier:\n- Checks started'),
      );
      expect(edited).toEqual({ id: status.id, url: expect.stringContaining(String(status.id)) });
      expect(usage.byOperation).toEqual({ updateComment: { calls: 1, writes: 1 } });

      const listed = await host().listComments(repository, number);
      expect(listed).toEqual([
        expect.objectContaining({ id: first.id, body: 'Queued', ownComment: true }),
        expect.objectContaining({ body: '<!-- status -->\nnot the service', ownComment: false }),
        expect.objectContaining({
          id: status.id,
          body: '<!-- status -->\nMerged\n\nEarlier:\n- Checks started',
          ownComment: true,
        }),
      ]);
      expect(listed[0]!.author).toBe(listed[2]!.author);
      expect(listed[1]!.author).not.toBe(listed[0]!.author);
      expect((await host().getPullRequest(repository, number)).number).toBe(number);

      await expectKind(host().updateComment(repository, 999_999_999, 'gone'), 'not-found');
      await expectKind(host().listComments(repository, 999_999), 'not-found');
    });

    it.each(['merge', 'squash', 'rebase', 'fast-forward'] as const)('merges with %s', async (method) => {
      const { repository, base, head } = await withFeature(`merge-${method}`);
      const pull = { number: await fixture().openPullRequest(repository, 'feature', 'main') };
      const outcome = await host().mergePullRequest(repository, pull.number, {
        method,
        expectedHeadSha: head,
      });
      expect((await host().getBranchHead(repository, 'main')).sha).toBe(outcome.sha);
      if (method === 'fast-forward') expect(outcome.sha).toBe(head);
      const merged = await host().getPullRequest(repository, pull.number);
      expect(merged).toMatchObject({ state: 'closed', merged: true });
      // Whatever the method, the base now carries the change.
      expect((await host().compare(repository, base, 'main')).files).toEqual(['src/feature.txt']);
    });

    it('merges a branch into another with a merge commit; nothing to merge keeps the head; a clash is a conflict', async () => {
      const f = fixture();
      const { repository, base, head } = await withFeature('merge-into');
      await host().createBranch(repository, 'draft', base);
      const other = await f.commitFile(repository, 'draft', 'docs/other.txt', 'other\n');
      const merged = await host().mergeIntoBranch(repository, 'draft', 'feature', 'Merge feature into draft');
      expect(merged.name).toBe('draft');
      expect(merged.sha).not.toBe(other);
      expect((await host().getBranchHead(repository, 'draft')).sha).toBe(merged.sha);
      // The draft now holds both changes, and the feature's head is one of its ancestors.
      expect((await host().compare(repository, base, 'draft')).files.sort()).toEqual([
        'docs/other.txt',
        'src/feature.txt',
      ]);
      expect((await host().compare(repository, head, 'draft')).behindBy).toBe(0);

      const again = await host().mergeIntoBranch(repository, 'draft', 'feature');
      expect(again).toEqual({ name: 'draft', sha: merged.sha });

      await f.commitFile(repository, 'feature', 'docs/other.txt', 'the feature disagrees\n');
      await expectKind(host().mergeIntoBranch(repository, 'draft', 'feature'), 'conflict');
      expect((await host().getBranchHead(repository, 'draft')).sha).toBe(merged.sha);
    });

    it('refuses a merge whose head moved (conflict) and one whose changes conflict (not-mergeable)', async () => {
      const f = fixture();
      const { repository, head } = await withFeature('refusals');
      const pull = { number: await fixture().openPullRequest(repository, 'feature', 'main') };
      await f.commitFile(repository, 'feature', 'src/feature.txt', 'feature, again\n');
      await expectKind(
        host().mergePullRequest(repository, pull.number, { method: 'merge', expectedHeadSha: head }),
        'conflict',
      );
      await f.commitFile(repository, 'main', 'src/feature.txt', 'main disagrees\n');
      await expectKind(
        host().mergePullRequest(repository, pull.number, { method: 'merge' }),
        'not-mergeable',
      );
    });

    it('updates a pull request branch from its base', async () => {
      const f = fixture();
      const { repository } = await withFeature('update');
      const pull = await host().createDraftPullRequest(repository, {
        title: 'U',
        body: '',
        head: 'feature',
        base: 'main',
      });
      await f.commitFile(repository, 'main', 'docs/other.txt', 'other\n');
      expect((await host().getPullRequest(repository, pull.number)).commitsBehind).toBe(1);
      await host().updatePullRequestBranch(repository, pull.number);
      const updated = await host().getPullRequest(repository, pull.number);
      expect(updated.commitsBehind).toBe(0);
      expect((await host().compare(repository, 'main', 'feature')).behindBy).toBe(0);
    });

    it('answers team membership and permissions', async () => {
      const f = fixture();
      const repository = await f.newRepository('teams');
      await f.addTeamMember(repository.owner, 'reviewers', 'team-member-1');
      expect(await host().listTeamMembers(repository.owner, 'reviewers')).toContain('team-member-1');
      expect(await host().isTeamMember(repository.owner, 'reviewers', 'team-member-1')).toBe(true);
      expect(await host().isTeamMember(repository.owner, 'reviewers', 'someone-else')).toBe(false);
      expect(['admin', 'maintain', 'write', 'triage', 'read', 'none']).toContain(
        await host().getPermission(repository, 'team-member-1'),
      );
    });

    it('meters the REST calls and writes of a piece of work, per operation', async () => {
      const { repository } = await withFeature('metered');
      const { usage } = await host().metered(async () => {
        await host().getBranchHead(repository, 'main');
        await host().createBranch(
          repository,
          'metered',
          (await host().getBranchHead(repository, 'feature')).sha,
        );
      });
      expect(usage.writes).toBe(1);
      expect(usage.byOperation.getBranchHead?.calls).toBe(2);
      expect(usage.byOperation.createBranch).toEqual({ calls: 1, writes: 1 });
    });
  });
}

async function expectKind(promise: Promise<unknown>, kind: CodeHostErrorKind): Promise<void> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(isCodeHostError(error) ? error.kind : error).toBe(kind);
}
