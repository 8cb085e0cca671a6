import { codePointLength } from '@switchyard/kernel';
import { mergeTrees } from '../../git/three-way-merge';
import { GitHubApiError, optionalBoolean, optionalString, requiredString } from '../github-api-error';
import { MAX_PULL_FILES, type ForgeTransaction } from '../forge-transaction';
import { userNamed } from '../github-shapes';
import { fileEntries } from '../repository';
import type { PullRecord, RepositoryRecord } from '../sandbox-records';
import { changePull, loadPull, type PullWebhook } from './pull-change';

/** Pull requests: opening, listing, editing, closing and merging them, their files and commits. */
type Body = Record<string, unknown>;

/**
 * GitHub's limits, which bound the work of one request: a title of 256 characters, 250 commits
 * listed per pull request (3,000 files: forge-transaction.ts).
 */
export const MAX_TITLE_LENGTH = 256;
export const MAX_LISTED_COMMITS = 250;

const titleOf = (title: string): string => {
  if (title.trim() === '') throw validationFailed('title', 'missing_field');
  if (codePointLength(title, MAX_TITLE_LENGTH) > MAX_TITLE_LENGTH)
    throw validationFailed(
      'title',
      'custom',
      `title is too long (maximum is ${MAX_TITLE_LENGTH} characters)`,
    );
  return title;
};

const validationFailed = (field: string, code = 'invalid', message?: string) =>
  GitHubApiError.unprocessable('Validation Failed', [
    { resource: 'PullRequest', field, code, ...(message ? { message } : {}) },
  ]);

/** `owner:branch` or `branch`; the sandbox has no forks, so the owner must be the repository's. */
const branchOf = (repo: RepositoryRecord, head: string): string => {
  const colon = head.indexOf(':');
  if (colon < 0) return head;
  if (head.slice(0, colon).toLowerCase() !== repo.owner.toLowerCase()) throw validationFailed('head');
  return head.slice(colon + 1);
};

export async function createPull(tx: ForgeTransaction, owner: string, name: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const title = titleOf(requiredString(body, 'title'));
  const headBranch = branchOf(repo, requiredString(body, 'head'));
  const baseBranch = requiredString(body, 'base');
  const text = optionalString(body, 'body') ?? null;
  const draft = optionalBoolean(body, 'draft') ?? false;
  const headSha = await tx.branchHead(repo, headBranch);
  if (!headSha) throw validationFailed('head');
  const baseSha = await tx.branchHead(repo, baseBranch);
  if (!baseSha) throw validationFailed('base');
  const open = await tx.store.records<PullRecord>(repo.id, 'pull');
  if (
    open.some((pull) => pull.state === 'open' && pull.headRef === headBranch && pull.baseRef === baseBranch)
  )
    throw validationFailed(
      'head',
      'custom',
      `A pull request already exists for ${repo.owner}:${headBranch}.`,
    );
  if ((await tx.commitsBetween(baseSha, headSha)).length === 0)
    throw validationFailed('base', 'custom', `No commits between ${baseBranch} and ${headBranch}`);
  const pull: PullRecord = {
    id: await tx.store.nextId(),
    number: repo.nextNumber,
    title,
    body: text,
    user: tx.actor,
    state: 'open',
    draft,
    locked: false,
    headRef: headBranch,
    headSha,
    baseRef: baseBranch,
    baseSha,
    merged: false,
    mergedAt: null,
    mergedBy: null,
    mergeCommitSha: null,
    closedAt: null,
    createdAt: tx.timestamp,
    updatedAt: tx.timestamp,
    labels: [],
    assignees: [],
    requestedReviewers: [],
    requestedTeams: [],
    maintainerCanModify: false,
  };
  await tx.store.saveRepository({ ...repo, nextNumber: repo.nextNumber + 1 });
  await tx.savePull(repo, pull);
  await tx.emitPull(repo, pull, 'opened');
  await tx.startCi(repo, headSha);
  return tx.pullJson(repo, pull);
}

export async function getPull(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
  return tx.pullJson(repo, pull);
}

export async function listPulls(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  query: Record<string, string | undefined>,
) {
  const repo = await tx.repository(owner, name);
  const state = query.state ?? 'open';
  if (!['open', 'closed', 'all'].includes(state)) throw GitHubApiError.unprocessable('Validation Failed');
  const head = query.head ? branchOf(repo, query.head) : undefined;
  const pulls = (await tx.store.records<PullRecord>(repo.id, 'pull'))
    .filter((pull) => state === 'all' || pull.state === state)
    .filter((pull) => head === undefined || pull.headRef === head)
    .filter((pull) => query.base === undefined || pull.baseRef === query.base)
    .sort((a, b) => (query.direction === 'asc' ? a.number - b.number : b.number - a.number));
  const answers = [];
  for (const pull of pulls) {
    answers.push(simplePull(await tx.pullJson(repo, pull)));
  }
  return answers;
}

export async function updatePull(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const { repo, pull: next } = await changePull(tx, owner, name, number, async ({ repo, pull }) => {
    const rawTitle = optionalString(body, 'title');
    const title = rawTitle === undefined ? undefined : titleOf(rawTitle);
    const text = body.body === null ? null : optionalString(body, 'body');
    const state = optionalString(body, 'state');
    const base = optionalString(body, 'base');
    if (state !== undefined && state !== 'open' && state !== 'closed') throw validationFailed('state');
    if (pull.merged && state === 'open')
      throw GitHubApiError.unprocessable('Validation Failed', [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: 'state cannot be changed. The pull request cannot be reopened.',
        },
      ]);
    const changes: Record<string, { from: string | null }> = {};
    let next: PullRecord = { ...pull };
    if (title !== undefined && title !== pull.title) {
      changes.title = { from: pull.title };
      next = { ...next, title };
    }
    if (text !== undefined && text !== pull.body) {
      changes.body = { from: pull.body };
      next = { ...next, body: text };
    }
    if (base !== undefined && base !== pull.baseRef) {
      const baseSha = await tx.branchHead(repo, base);
      if (!baseSha) throw validationFailed('base');
      changes.base = { from: pull.baseRef };
      next = { ...next, baseRef: base, baseSha };
    }
    const reopening = state === 'open' && pull.state === 'closed';
    const closing = state === 'closed' && pull.state === 'open';
    if (reopening && !(await tx.branchHead(repo, pull.headRef)))
      throw validationFailed('state', 'custom', 'The head branch is gone');
    if (closing) next = { ...next, state: 'closed', closedAt: tx.timestamp };
    if (reopening) next = { ...next, state: 'open', closedAt: null };
    const webhooks: PullWebhook[] = [];
    if (Object.keys(changes).length > 0) {
      const shaped = Object.fromEntries(
        Object.entries(changes).map(([field, change]) =>
          field === 'base'
            ? [field, { ref: { from: change.from }, sha: { from: pull.baseSha } }]
            : [field, change],
        ),
      );
      webhooks.push({ action: 'edited', extra: { changes: shaped } });
    }
    if (closing) webhooks.push({ action: 'closed' });
    if (reopening) webhooks.push({ action: 'reopened' });
    return {
      next,
      webhooks,
      afterwards: reopening
        ? async () => {
            await tx.startCi(repo, next.headSha);
          }
        : undefined,
    };
  });
  return tx.pullJson(repo, next);
}

/** `PUT /pulls/{n}/merge` with merge, squash or rebase; 405 when not mergeable, 409 on a stale `sha`. */
export async function mergePull(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const { pull: closed } = await changePull(tx, owner, name, number, async ({ repo, pull }) => {
    const method = optionalString(body, 'merge_method') ?? 'merge';
    if (!['merge', 'squash', 'rebase'].includes(method)) throw validationFailed('merge_method');
    const expected = optionalString(body, 'sha');
    if (pull.state !== 'open') throw new GitHubApiError(405, 'Pull Request is not mergeable');
    if (pull.draft) throw new GitHubApiError(405, 'Pull Request is still a draft');
    if (expected !== undefined && expected !== pull.headSha)
      throw GitHubApiError.conflict('Head branch was modified. Review and try the merge again.');
    const baseHead = await tx.branchHeadOrFail(repo, pull.baseRef, 'Base branch was deleted');
    const merged = await tx.mergedFiles(baseHead, pull.headSha);
    if (!merged.clean) throw new GitHubApiError(405, 'Pull Request is not mergeable');
    const title = optionalString(body, 'commit_title');
    const message = optionalString(body, 'commit_message');
    let sha: string;
    if (method === 'merge') {
      const subject = title ?? `Merge pull request #${pull.number} from ${repo.owner}/${pull.headRef}`;
      sha = await tx.writeCommit(
        merged.tree,
        [baseHead, pull.headSha],
        `${subject}\n\n${message ?? pull.title}`,
      );
    } else if (method === 'squash') {
      const subject = title ?? `${pull.title} (#${pull.number})`;
      sha = await tx.writeCommit(merged.tree, [baseHead], message ? `${subject}\n\n${message}` : subject);
    } else {
      sha = await rebaseCommits(tx, baseHead, pull);
    }
    const closed: PullRecord = {
      ...pull,
      state: 'closed',
      merged: true,
      mergedAt: tx.timestamp,
      mergedBy: tx.actor,
      mergeCommitSha: sha,
      closedAt: tx.timestamp,
      baseSha: baseHead,
    };
    return {
      next: closed,
      moves: () => tx.moveRef(repo, `refs/heads/${pull.baseRef}`, sha),
      webhooks: [{ action: 'closed' }],
    };
  });
  return { sha: closed.mergeCommitSha, merged: true, message: 'Pull Request successfully merged' };
}

/** Replays each commit of the pull request on the new base, keeping authors: GitHub's rebase merge. */
async function rebaseCommits(tx: ForgeTransaction, onto: string, pull: PullRecord): Promise<string> {
  const base = (await tx.mergeBase(onto, pull.headSha)) ?? onto;
  let tip = onto;
  for (const sha of await tx.commitsBetween(base, pull.headSha)) {
    const commit = await tx.commitOrFail(sha);
    const parentFiles = commit.parents[0] ? await tx.filesOf(commit.parents[0]) : new Map<string, string>();
    const applied = mergeTrees(parentFiles, await tx.filesOf(tip), await tx.store.flatTree(commit.tree));
    if (!applied.clean) throw new GitHubApiError(405, "This branch can't be rebased");
    tip = await tx.writeCommit(applied.tree, [tip], commit.message, userNamed(commit.author.name));
  }
  return tip;
}

/** `PUT /pulls/{n}/update-branch`: merges the base into the head branch (202). */
export async function updatePullBranch(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
  const expected = optionalString(body, 'expected_head_sha');
  if (pull.state !== 'open') throw GitHubApiError.unprocessable('Pull request is closed');
  if (expected !== undefined && expected !== pull.headSha)
    throw GitHubApiError.unprocessable('expected head sha didn’t match current head ref.');
  const baseHead = await tx.branchHeadOrFail(repo, pull.baseRef);
  if (!(await tx.isAncestor(baseHead, pull.headSha))) {
    const merged = await tx.mergedFiles(pull.headSha, baseHead);
    if (!merged.clean) throw GitHubApiError.unprocessable('merge conflict between base and head');
    const sha = await tx.writeCommit(
      merged.tree,
      [pull.headSha, baseHead],
      `Merge branch '${pull.baseRef}' into ${pull.headRef}`,
    );
    await tx.moveRef(repo, `refs/heads/${pull.headRef}`, sha);
  }
  return {
    message: 'Updating pull request branch.',
    url: `${tx.shapes.html}/${repo.owner}/${repo.name}/pull/${pull.number}`,
  };
}

export async function pullFiles(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
  const base = (await tx.mergeBase(pull.baseSha, pull.headSha)) ?? pull.baseSha;
  const entries = await fileEntries(tx, repo, base, pull.headSha);
  return entries.slice(0, MAX_PULL_FILES).map((entry) => ({ ...entry, patch: undefined }));
}

export async function pullCommits(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
  const base = (await tx.mergeBase(pull.baseSha, pull.headSha)) ?? pull.baseSha;
  const commits = [];
  for (const sha of (await tx.commitsBetween(base, pull.headSha)).slice(0, MAX_LISTED_COMMITS))
    commits.push(tx.shapes.commit(repo, await tx.commitOrFail(sha)));
  return commits;
}

/** The `pull-request-simple` shape of lists: the full one without the fields computed per pull request. */
export function simplePull(full: Awaited<ReturnType<ForgeTransaction['pullJson']>>) {
  const {
    mergeable: _mergeable,
    rebaseable: _rebaseable,
    mergeable_state: _mergeableState,
    merged: _merged,
    merged_by: _mergedBy,
    comments: _comments,
    review_comments: _reviewComments,
    maintainer_can_modify: _maintainerCanModify,
    commits: _commits,
    additions: _additions,
    deletions: _deletions,
    changed_files: _changedFiles,
    ...simple
  } = full;
  return simple;
}
