import { randomUUID } from 'node:crypto';
import { combineCiMarkers, findCiMarkers, runSandboxCi, type SandboxCiMarkers } from '../ci/ci-model';
import {
  blobObject,
  commitObject,
  EMPTY_TREE_SHA,
  treeObject,
  treeObjectsOf,
  type FlatTree,
  type GitSignature,
} from '../git/git-objects';
import { ancestors, commitsBetween, diffTrees, mergeBase, mergeTrees } from '../git/three-way-merge';
import { isRepositoryName, isRepositoryOwner } from '@switchyard/code-host';
import type { SandboxStore } from '../store/sandbox-store';
import { GitHubApiError } from './github-api-error';
import { GitHubShapes, SANDBOX_INSTALLATION_ID, stableId, userNamed } from './github-shapes';
import type {
  CheckRunRecord,
  PullRecord,
  RepositoryRecord,
  SandboxUser,
  StoredCommit,
} from './sandbox-records';

export const SANDBOX_BOT = userNamed('switchyard-sandbox[bot]', 'Bot');

/** GitHub lists at most 3,000 files of a pull request (and reports no more per commit). */
export const MAX_PULL_FILES = 3_000;

export type PullContext = Parameters<GitHubShapes['pull']>[2];
export const CI_CHECK_NAME = 'ci';

/** A file's markers as its log line says them: `fail, flaky 0.3, seconds 20`, or '' for none. */
const describeCiMarkers = (markers: SandboxCiMarkers): string =>
  [
    ...(markers.fails ? ['fail'] : []),
    ...markers.flakyRates.map((rate) => `flaky ${rate}`),
    ...markers.durations.map((seconds) => `seconds ${seconds}`),
  ].join(', ');

export interface ForgeSettings {
  /** The sandbox CI's duration for a tree that sets none, in seconds. */
  readonly ciSeconds: number;
  /** A read (GET): a repository met for the first time cannot be created here. */
  readonly readOnly?: boolean;
}

/** A read met a repository that does not exist yet: the forge runs it again as a write. */
export class RepositoryToCreate extends Error {}

export interface Mergeability {
  readonly mergeable: boolean | null;
  readonly state: 'clean' | 'dirty' | 'draft' | 'unknown';
  readonly conflicts: readonly string[];
}

/**
 * One write to the sandbox: the store over one SQL transaction, the time, the caller, and the
 * webhooks the change sends (queued in the same transaction, delivered after it commits). The
 * git-level moves every operation shares live here: commits, branch moves (with their push and
 * synchronize webhooks), merges, and starting the sandbox CI on a new pull request head.
 */
export class ForgeTransaction {
  readonly shapes: GitHubShapes;

  constructor(
    readonly store: SandboxStore,
    readonly now: Date,
    readonly actor: SandboxUser,
    apiBase: string,
    readonly settings: ForgeSettings,
  ) {
    this.shapes = new GitHubShapes(apiBase);
  }

  get timestamp(): string {
    return this.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  signature(user: SandboxUser = this.actor): GitSignature {
    return {
      name: user.login,
      // GitHub's noreply form, `id+login@…`, with the login reduced to what an address may hold (`[bot]`).
      email: `${user.id}+${user.login.replace(/[^A-Za-z0-9._-]/g, '')}@users.noreply.sandbox.localhost`,
      date: this.timestamp,
    };
  }

  // --- repositories -----------------------------------------------------------------------------

  /** The repository, created with an empty `main` on first reference (sandbox mode's promise). */
  async repository(owner: string, name: string): Promise<RepositoryRecord> {
    // Names GitHub would not give (`..`, a slash, 40 characters of owner) are found nowhere.
    if (!isRepositoryOwner(owner) || !isRepositoryName(name)) throw GitHubApiError.notFound();
    const existing = await this.store.repository(owner, name);
    if (existing) return existing;
    if (this.settings.readOnly) throw new RepositoryToCreate(`${owner}/${name}`);
    const firstOfOwner = !(await this.store.repositories()).some(
      (repo) => repo.owner.toLowerCase() === owner.toLowerCase(),
    );
    const repo: RepositoryRecord = {
      id: await this.store.nextId(),
      owner,
      ownerId: stableId(`user:${owner}`),
      name,
      defaultBranch: 'main',
      createdAt: this.timestamp,
      pushedAt: this.timestamp,
      nextNumber: 1,
    };
    await this.store.saveRepository(repo);
    const empty = treeObject([]);
    const root = commitObject({
      tree: EMPTY_TREE_SHA,
      parents: [],
      author: this.signature(SANDBOX_BOT),
      committer: this.signature(SANDBOX_BOT),
      message: 'Initial commit',
    });
    await this.store.putObjects([empty, root]);
    await this.store.setRef(repo.id, 'refs/heads/main', root.sha);
    const ownerUser = userNamed(owner, 'Organization');
    if (firstOfOwner) {
      await this.emitRaw('installation', {
        action: 'created',
        installation: this.shapes.installation(ownerUser, this.timestamp),
        repositories: [
          {
            id: repo.id,
            node_id: this.shapes.nodeId('Repository', repo.id),
            name,
            full_name: `${owner}/${name}`,
            private: true,
          },
        ],
        requester: null,
        sender: this.shapes.user(this.actor),
      });
    } else {
      await this.emitRaw('installation_repositories', {
        action: 'added',
        installation: this.shapes.installation(ownerUser, this.timestamp),
        repository_selection: 'all',
        repositories_added: [
          {
            id: repo.id,
            node_id: this.shapes.nodeId('Repository', repo.id),
            name,
            full_name: `${owner}/${name}`,
            private: true,
          },
        ],
        repositories_removed: [],
        requester: null,
        sender: this.shapes.user(this.actor),
      });
    }
    return repo;
  }

  async repositoryJson(repo: RepositoryRecord) {
    const open = (await this.store.records<PullRecord>(repo.id, 'pull')).filter(
      (pull) => pull.state === 'open',
    ).length;
    return this.shapes.repository(repo, open);
  }

  // --- webhooks -----------------------------------------------------------------------------------

  /** Queues a delivery carrying the repository, the sender and the installation, as GitHub's do. */
  async emit(
    event: string,
    repo: RepositoryRecord,
    payload: Record<string, unknown>,
    sender = this.actor,
  ): Promise<void> {
    await this.emitRaw(event, {
      ...payload,
      repository: await this.repositoryJson(repo),
      sender: this.shapes.user(sender),
    });
  }

  /** Queues a delivery as given; an App's deliveries name its installation (in full for `installation` events). */
  async emitRaw(event: string, payload: Record<string, unknown>): Promise<void> {
    const installation = payload.installation ?? {
      id: SANDBOX_INSTALLATION_ID,
      node_id: this.shapes.nodeId('Installation', SANDBOX_INSTALLATION_ID),
    };
    await this.store.enqueueDelivery(
      await this.store.nextId(),
      randomUUID(),
      event,
      { ...payload, installation },
      this.now,
    );
  }

  // --- git -----------------------------------------------------------------------------------------

  async commitOrFail(sha: string): Promise<StoredCommit> {
    const commit = await this.store.commit(sha);
    if (!commit) throw GitHubApiError.unprocessable('Object does not exist');
    return commit;
  }

  async filesOf(commitSha: string): Promise<Map<string, string>> {
    return this.store.flatTree((await this.commitOrFail(commitSha)).tree);
  }

  /** Stores a tree's objects and a commit on it; answers the commit's sha. */
  async writeCommit(
    files: FlatTree,
    parents: readonly string[],
    message: string,
    author = this.actor,
  ): Promise<string> {
    const { root, trees } = treeObjectsOf(files);
    const commit = commitObject({
      tree: root,
      parents,
      author: this.signature(author),
      committer: this.signature(author),
      message,
    });
    await this.store.putObjects([...trees, commit]);
    return commit.sha;
  }

  async writeBlob(content: Buffer): Promise<string> {
    const blob = blobObject(content);
    await this.store.putObjects([blob]);
    return blob.sha;
  }

  readonly parentsOf = async (sha: string): Promise<readonly string[]> =>
    (await this.store.commit(sha))?.parents ?? [];

  async mergeBase(left: string, right: string): Promise<string | null> {
    return mergeBase(left, right, this.parentsOf);
  }

  async commitsBetween(base: string, head: string): Promise<string[]> {
    return commitsBetween(base, head, this.parentsOf);
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    return (await ancestors(descendant, this.parentsOf)).includes(ancestor);
  }

  /** The tree a merge of `theirs` into `ours` would have, or the paths that conflict. */
  async mergedFiles(ours: string, theirs: string) {
    const base = await this.mergeBase(ours, theirs);
    const baseFiles = base ? await this.filesOf(base) : new Map<string, string>();
    return mergeTrees(baseFiles, await this.filesOf(ours), await this.filesOf(theirs));
  }

  async branchHead(repo: RepositoryRecord, branch: string): Promise<string | null> {
    return this.store.ref(repo.id, `refs/heads/${branch}`);
  }

  async branchHeadOrFail(
    repo: RepositoryRecord,
    branch: string,
    message = 'Branch not found',
  ): Promise<string> {
    const sha = await this.branchHead(repo, branch);
    if (!sha) throw new GitHubApiError(404, message);
    return sha;
  }

  /**
   * Points a ref at a commit and sends what GitHub sends: `push`, then for pull requests whose head
   * is that branch `pull_request.synchronize` (and a CI run on the new head).
   */
  async moveRef(repo: RepositoryRecord, ref: string, sha: string | null, forced = false): Promise<void> {
    const before = await this.store.ref(repo.id, ref);
    if (before === sha) return;
    if (sha === null) await this.store.deleteRef(repo.id, ref);
    else await this.store.setRef(repo.id, ref, sha);
    await this.store.saveRepository({ ...repo, pushedAt: this.timestamp });
    await this.emitPush(repo, ref, before, sha, forced);
    if (!ref.startsWith('refs/heads/')) return;
    const branch = ref.slice('refs/heads/'.length);
    for (const pull of await this.store.records<PullRecord>(repo.id, 'pull')) {
      if (pull.state !== 'open') continue;
      if (pull.headRef === branch && sha !== null) {
        const updated: PullRecord = { ...pull, headSha: sha, updatedAt: this.timestamp };
        await this.savePull(repo, updated);
        await this.emitPull(repo, updated, 'synchronize', { before: pull.headSha, after: sha });
        await this.startCi(repo, sha);
      } else if (pull.baseRef === branch && sha !== null) {
        // A push that brings a pull request's head into its base merges it, as on GitHub (fast-forward).
        if (await this.isAncestor(pull.headSha, sha)) {
          const merged: PullRecord = {
            ...pull,
            state: 'closed',
            merged: true,
            mergedAt: this.timestamp,
            mergedBy: this.actor,
            mergeCommitSha: pull.headSha,
            closedAt: this.timestamp,
            updatedAt: this.timestamp,
            baseSha: sha,
          };
          await this.savePull(repo, merged);
          await this.emitPull(repo, merged, 'closed');
        } else await this.savePull(repo, { ...pull, baseSha: sha });
      }
    }
  }

  private async emitPush(
    repo: RepositoryRecord,
    ref: string,
    before: string | null,
    after: string | null,
    forced: boolean,
  ) {
    const zero = '0'.repeat(40);
    const added = after && before ? await this.commitsBetween(before, after) : after ? [after] : [];
    const commits = [];
    for (const sha of added.slice(-20)) commits.push(await this.pushCommit(repo, sha));
    await this.emit('push', repo, {
      ref,
      before: before ?? zero,
      after: after ?? zero,
      created: before === null,
      deleted: after === null,
      forced,
      base_ref: null,
      compare: `${this.shapes.html}/${repo.owner}/${repo.name}/compare/${(before ?? zero).slice(0, 12)}...${(after ?? zero).slice(0, 12)}`,
      commits,
      head_commit: after ? await this.pushCommit(repo, after) : null,
      pusher: { name: this.actor.login, email: this.signature().email },
    });
  }

  private async pushCommit(repo: RepositoryRecord, sha: string) {
    const commit = await this.commitOrFail(sha);
    const parent = commit.parents[0];
    const changes = diffTrees(
      parent ? await this.filesOf(parent) : new Map(),
      await this.store.flatTree(commit.tree),
    );
    const person = (who: GitSignature) => ({
      name: who.name,
      email: who.email,
      username: who.name,
      date: who.date,
    });
    return {
      id: sha,
      tree_id: commit.tree,
      distinct: true,
      message: commit.message,
      timestamp: commit.committer.date,
      url: `${this.shapes.html}/${repo.owner}/${repo.name}/commit/${sha}`,
      author: person(commit.author),
      committer: person(commit.committer),
      added: changes.filter((change) => change.status === 'added').map((change) => change.filename),
      removed: changes.filter((change) => change.status === 'removed').map((change) => change.filename),
      modified: changes.filter((change) => change.status === 'modified').map((change) => change.filename),
    };
  }

  // --- pull requests -----------------------------------------------------------------------------------

  async pull(repo: RepositoryRecord, number: number): Promise<PullRecord> {
    const [pull] = await this.store.records<PullRecord>(repo.id, 'pull', String(number));
    if (!pull) throw GitHubApiError.notFound();
    return pull;
  }

  async savePull(repo: RepositoryRecord, pull: PullRecord): Promise<void> {
    await this.store.saveRecord('pull', pull.id, repo.id, String(pull.number), pull);
  }

  async mergeability(repo: RepositoryRecord, pull: PullRecord): Promise<Mergeability> {
    if (pull.state !== 'open') return { mergeable: null, state: 'unknown', conflicts: [] };
    const baseHead = (await this.branchHead(repo, pull.baseRef)) ?? pull.baseSha;
    const merge = await this.mergedFiles(baseHead, pull.headSha);
    if (!merge.clean) return { mergeable: false, state: 'dirty', conflicts: merge.conflicts };
    return { mergeable: true, state: pull.draft ? 'draft' : 'clean', conflicts: [] };
  }

  async pullJson(repo: RepositoryRecord, pull: PullRecord, context?: PullContext) {
    return this.shapes.pull(repo, pull, context ?? (await this.pullContext(repo, pull)));
  }

  /**
   * What a pull request's JSON computes from the repository (mergeability, counts, the repository
   * itself), apart from the record: a change that sends several webhooks for one pull request (one
   * per label added) computes it once. Line counts cover the first 3,000 changed files, as GitHub
   * lists no more of a pull request's files.
   */
  async pullContext(repo: RepositoryRecord, pull: PullRecord): Promise<PullContext> {
    const merge = await this.mergeability(repo, pull);
    const base = (await this.mergeBase(pull.baseSha, pull.headSha)) ?? pull.baseSha;
    const commits = await this.commitsBetween(base, pull.headSha);
    const changes = diffTrees(await this.filesOf(base), await this.filesOf(pull.headSha));
    let additions = 0;
    let deletions = 0;
    for (const change of changes.slice(0, MAX_PULL_FILES)) {
      const lines = await this.lineCounts(change.before, change.after);
      additions += lines.additions;
      deletions += lines.deletions;
    }
    const comments = await this.store.countRecords(repo.id, 'comment', String(pull.number));
    return {
      repository: await this.repositoryJson(repo),
      owner: userNamed(repo.owner, 'Organization'),
      mergeable: merge.mergeable,
      mergeableState: merge.state,
      counts: { commits: commits.length, additions, deletions, changedFiles: changes.length, comments },
    };
  }

  /** Whole-file line counts: a modified file counts its old lines removed and new lines added. */
  async lineCounts(before: string | undefined, after: string | undefined) {
    const lines = async (sha: string | undefined) => {
      if (!sha) return 0;
      const text = (await this.store.blob(sha))?.toString('utf8') ?? '';
      return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
    };
    return { additions: await lines(after), deletions: await lines(before) };
  }

  async emitPull(
    repo: RepositoryRecord,
    pull: PullRecord,
    action: string,
    extra: Record<string, unknown> = {},
    context?: PullContext,
  ) {
    const pullRequest = await this.pullJson(repo, pull, context);
    await this.emitRaw('pull_request', {
      action,
      number: pull.number,
      ...extra,
      pull_request: pullRequest,
      repository: context?.repository ?? (await this.repositoryJson(repo)),
      sender: this.shapes.user(this.actor),
    });
  }

  // --- the sandbox CI -------------------------------------------------------------------------------

  /**
   * Starts the `ci` check run on a pull request head, once per commit, with the outcome the CI
   * model draws for its tree; the scheduler completes it when it is due.
   */
  async startCi(repo: RepositoryRecord, headSha: string): Promise<CheckRunRecord | null> {
    const runs = await this.store.records<CheckRunRecord>(repo.id, 'check_run', headSha);
    const previous = runs.filter((run) => run.app === 'sandbox-ci' && run.name === CI_CHECK_NAME);
    if (previous.some((run) => run.status !== 'completed')) return null;
    if (previous.length > 0) return null;
    // Each file's markers: together they decide the run; the files that hold some make its log
    // (the check run's output.text, shown on its details page).
    const markers: SandboxCiMarkers[] = [];
    const log: string[] = [];
    for (const [path, blob] of await this.filesOf(headSha)) {
      const found = findCiMarkers([(await this.store.blob(blob))?.toString('utf8') ?? '']);
      markers.push(found);
      const said = describeCiMarkers(found);
      if (said !== '') log.push(`${path}: sandbox-ci ${said}`);
    }
    log.unshift(
      `Read ${markers.length} files at ${headSha}; ${log.length || 'none'} with sandbox-ci markers.`,
    );
    const outcome = runSandboxCi({
      markers: combineCiMarkers(markers),
      seed: headSha,
      run: previous.length + 1,
      defaultSeconds: this.settings.ciSeconds,
    });
    const run: CheckRunRecord = {
      id: await this.store.nextId(),
      suiteId: stableId(`suite:${repo.id}:${headSha}`),
      name: CI_CHECK_NAME,
      headSha,
      status: 'in_progress',
      conclusion: null,
      startedAt: this.timestamp,
      completedAt: null,
      externalId: `sandbox-ci:${headSha}:${previous.length + 1}`,
      detailsUrl: null,
      output: {
        title: 'Sandbox CI is running',
        summary: `Expected to take ${outcome.seconds} s`,
        text: log.join('\n'),
      },
      app: 'sandbox-ci',
    };
    await this.store.saveRecord('check_run', run.id, repo.id, headSha, run);
    await this.store.scheduleCiRun(
      run.id,
      repo.id,
      new Date(this.now.getTime() + outcome.seconds * 1000),
      outcome.conclusion,
    );
    await this.emitCheckRun(repo, run, 'created', SANDBOX_BOT);
    return run;
  }

  async checkRunJson(repo: RepositoryRecord, run: CheckRunRecord) {
    const pulls = (await this.store.records<PullRecord>(repo.id, 'pull')).filter(
      (pull) => pull.state === 'open' && pull.headSha === run.headSha,
    );
    return this.shapes.checkRun(repo, run, userNamed(repo.owner, 'Organization'), pulls);
  }

  async emitCheckRun(
    repo: RepositoryRecord,
    run: CheckRunRecord,
    action: string,
    sender: SandboxUser = this.actor,
  ) {
    const checkRun = await this.checkRunJson(repo, run);
    await this.emit(
      'check_run',
      repo,
      {
        action,
        check_run: { ...checkRun, check_suite: await this.checkSuiteJson(repo, run.headSha, run.suiteId) },
      },
      sender,
    );
  }

  /** A check suite as webhooks carry it: the runs of one App on one commit, summed up. */
  async checkSuiteJson(repo: RepositoryRecord, headSha: string, suiteId: number) {
    const runs = (await this.store.records<CheckRunRecord>(repo.id, 'check_run', headSha)).filter(
      (run) => run.suiteId === suiteId,
    );
    const completed = runs.every((run) => run.status === 'completed');
    const conclusions = runs.map((run) => run.conclusion);
    const conclusion = !completed
      ? null
      : conclusions.includes('failure')
        ? 'failure'
        : conclusions.includes('cancelled')
          ? 'cancelled'
          : conclusions.includes('timed_out')
            ? 'timed_out'
            : 'success';
    const pulls = (await this.store.records<PullRecord>(repo.id, 'pull')).filter(
      (pull) => pull.state === 'open' && pull.headSha === headSha,
    );
    const repoUrl = `${this.shapes.api}/repos/${repo.owner}/${repo.name}`;
    const pullRef = (ref: string, sha: string) => ({
      ref,
      sha,
      repo: { id: repo.id, url: repoUrl, name: repo.name },
    });
    const branch = pulls[0]?.headRef ?? null;
    return {
      id: suiteId,
      node_id: this.shapes.nodeId('CheckSuite', suiteId),
      head_branch: branch,
      head_sha: headSha,
      status: completed ? 'completed' : 'in_progress',
      conclusion,
      url: `${repoUrl}/check-suites/${suiteId}`,
      before: null,
      after: headSha,
      pull_requests: pulls.map((pull) => ({
        url: `${repoUrl}/pulls/${pull.number}`,
        id: pull.id,
        number: pull.number,
        head: pullRef(pull.headRef, pull.headSha),
        base: pullRef(pull.baseRef, pull.baseSha),
      })),
      app: this.shapes.app(userNamed(repo.owner, 'Organization'), repo.createdAt),
      created_at: runs[0]?.startedAt ?? this.timestamp,
      updated_at: this.timestamp,
      latest_check_runs_count: runs.length,
      check_runs_url: `${repoUrl}/check-suites/${suiteId}/check-runs`,
      head_commit: await this.simpleCommit(headSha),
      rerequestable: true,
      runs_rerequestable: true,
    };
  }

  async simpleCommit(sha: string) {
    const commit = await this.commitOrFail(sha);
    return {
      id: sha,
      tree_id: commit.tree,
      message: commit.message,
      timestamp: commit.committer.date,
      author: { name: commit.author.name, email: commit.author.email },
      committer: { name: commit.committer.name, email: commit.committer.email },
    };
  }
}
