import { codePointLength } from '@switchyard/kernel';
import { mergeTrees } from '../git/three-way-merge';
import {
  GitHubApiError,
  optionalBoolean,
  optionalString,
  requiredString,
  stringList,
} from './github-api-error';
import { MAX_PULL_FILES, type ForgeTransaction } from './forge-transaction';
import { stableId, userNamed } from './github-shapes';
import { fileEntries } from './repository-operations';
import type {
  CommentRecord,
  LabelRecord,
  PullRecord,
  RepositoryRecord,
  ReviewRecord,
  ReviewState,
} from './sandbox-records';

/** Pull requests and their conversation: reviews, review requests, comments, labels, merges. */
type Body = Record<string, unknown>;

/**
 * GitHub's limits, which bound the work of one request: a title of 256 characters, 100 labels of
 * 50 characters on a pull request, 15 requested reviewers (users and teams), 2,500 comments on an
 * issue, 250 commits listed per pull request (3,000 files: forge-transaction.ts).
 */
export const MAX_TITLE_LENGTH = 256;
export const MAX_LABELS = 100;
export const MAX_LABEL_NAME_LENGTH = 50;
export const MAX_REQUESTED_REVIEWERS = 15;
export const MAX_COMMENTS = 2_500;
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
  const repo = await tx.repository(owner, name);
  return tx.pullJson(repo, await tx.pull(repo, number));
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
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
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
  next = { ...next, updatedAt: tx.timestamp };
  await tx.savePull(repo, next);
  if (Object.keys(changes).length > 0) {
    const shaped = Object.fromEntries(
      Object.entries(changes).map(([field, change]) =>
        field === 'base'
          ? [field, { ref: { from: change.from }, sha: { from: pull.baseSha } }]
          : [field, change],
      ),
    );
    await tx.emitPull(repo, next, 'edited', { changes: shaped });
  }
  if (closing) await tx.emitPull(repo, next, 'closed');
  if (reopening) {
    await tx.emitPull(repo, next, 'reopened');
    await tx.startCi(repo, next.headSha);
  }
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
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
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
    updatedAt: tx.timestamp,
    baseSha: baseHead,
  };
  await tx.savePull(repo, closed);
  await tx.moveRef(repo, `refs/heads/${pull.baseRef}`, sha);
  await tx.emitPull(repo, closed, 'closed');
  return { sha, merged: true, message: 'Pull Request successfully merged' };
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
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
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
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const base = (await tx.mergeBase(pull.baseSha, pull.headSha)) ?? pull.baseSha;
  const entries = await fileEntries(tx, repo, base, pull.headSha);
  return entries.slice(0, MAX_PULL_FILES).map((entry) => ({ ...entry, patch: undefined }));
}

export async function pullCommits(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const base = (await tx.mergeBase(pull.baseSha, pull.headSha)) ?? pull.baseSha;
  const commits = [];
  for (const sha of (await tx.commitsBetween(base, pull.headSha)).slice(0, MAX_LISTED_COMMITS))
    commits.push(tx.shapes.commit(repo, await tx.commitOrFail(sha)));
  return commits;
}

// --- reviews and review requests ----------------------------------------------------------------------

const REVIEW_EVENTS: Record<string, ReviewState> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
};

export async function createReview(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const event = optionalString(body, 'event');
  const text = optionalString(body, 'body') ?? '';
  if (event !== undefined && !REVIEW_EVENTS[event]) throw GitHubApiError.unprocessable('Validation Failed');
  if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && text === '')
    throw GitHubApiError.unprocessable(
      `Unprocessable Entity: "Body is required for ${event === 'COMMENT' ? 'comment' : 'request changes'} events"`,
    );
  if (event !== undefined && pull.user.login === tx.actor.login && event !== 'COMMENT')
    throw GitHubApiError.unprocessable('Unprocessable Entity: "Can not approve your own pull request"');
  const review: ReviewRecord = {
    id: await tx.store.nextId(),
    pullNumber: pull.number,
    user: tx.actor,
    body: text,
    state: event ? REVIEW_EVENTS[event] : 'PENDING',
    commitId: optionalString(body, 'commit_id') ?? pull.headSha,
    submittedAt: tx.timestamp,
  };
  await tx.store.saveRecord('review', review.id, repo.id, String(pull.number), review);
  if (review.state !== 'PENDING') {
    const next = {
      ...pull,
      requestedReviewers: pull.requestedReviewers.filter((user) => user.login !== tx.actor.login),
      updatedAt: tx.timestamp,
    };
    await tx.savePull(repo, next);
    await tx.emit('pull_request_review', repo, {
      action: 'submitted',
      review: tx.shapes.review(repo, review),
      pull_request: await tx.pullJson(repo, next),
    });
  }
  const { submitted_at: submittedAt, ...pending } = tx.shapes.review(repo, review);
  return review.state === 'PENDING' ? pending : { ...pending, submitted_at: submittedAt };
}

export async function listReviews(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const reviews = await tx.store.records<ReviewRecord>(repo.id, 'review', String(pull.number));
  return reviews.map((review) => tx.shapes.review(repo, review));
}

export async function requestedReviewers(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  return {
    users: pull.requestedReviewers.map((user) => tx.shapes.user(user)),
    teams: pull.requestedTeams.map((slug) => tx.shapes.teamSimple(repo.owner, slug)),
  };
}

export async function requestReviewers(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const users = stringList(body, 'reviewers') ?? [];
  const teams = stringList(body, 'team_reviewers') ?? [];
  if (users.length === 0 && teams.length === 0) throw GitHubApiError.unprocessable('Validation Failed');
  if (users.some((login) => login.toLowerCase() === pull.user.login.toLowerCase()))
    throw GitHubApiError.unprocessable('Review cannot be requested from pull request author.');
  const addedUsers = users
    .map((login) => userNamed(login))
    .filter((user) => !pull.requestedReviewers.some((known) => known.login === user.login));
  const addedTeams = teams.filter((slug) => !pull.requestedTeams.includes(slug));
  const requested =
    pull.requestedReviewers.length + pull.requestedTeams.length + addedUsers.length + addedTeams.length;
  if (requested > MAX_REQUESTED_REVIEWERS)
    throw GitHubApiError.unprocessable(
      `Reviews may only be requested from ${MAX_REQUESTED_REVIEWERS} users and teams at most.`,
    );
  const next: PullRecord = {
    ...pull,
    requestedReviewers: [...pull.requestedReviewers, ...addedUsers],
    requestedTeams: [...pull.requestedTeams, ...addedTeams],
    updatedAt: tx.timestamp,
  };
  await tx.savePull(repo, next);
  const context = await tx.pullContext(repo, next);
  for (const user of addedUsers)
    await tx.emitPull(repo, next, 'review_requested', { requested_reviewer: tx.shapes.user(user) }, context);
  for (const slug of addedTeams)
    await tx.emitPull(repo, next, 'review_requested', {
      requested_team: {
        ...tx.shapes.teamSimple(repo.owner, slug, (await tx.store.team(repo.owner, slug)) ?? undefined),
      },
    });
  return simplePull(await tx.pullJson(repo, next));
}

export async function removeRequestedReviewers(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const users = stringList(body, 'reviewers') ?? [];
  const teams = stringList(body, 'team_reviewers') ?? [];
  const removedUsers = pull.requestedReviewers.filter((user) => users.includes(user.login));
  const removedTeams = pull.requestedTeams.filter((slug) => teams.includes(slug));
  const next: PullRecord = {
    ...pull,
    requestedReviewers: pull.requestedReviewers.filter((user) => !users.includes(user.login)),
    requestedTeams: pull.requestedTeams.filter((slug) => !teams.includes(slug)),
    updatedAt: tx.timestamp,
  };
  await tx.savePull(repo, next);
  for (const user of removedUsers)
    await tx.emitPull(repo, next, 'review_request_removed', { requested_reviewer: tx.shapes.user(user) });
  for (const slug of removedTeams)
    await tx.emitPull(repo, next, 'review_request_removed', {
      requested_team: tx.shapes.teamSimple(repo.owner, slug),
    });
  return simplePull(await tx.pullJson(repo, next));
}

// --- comments ------------------------------------------------------------------------------------------

export async function createComment(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const text = requiredString(body, 'body');
  if (codePointLength(text, 65_536) > 65_536)
    throw GitHubApiError.unprocessable('Body is too long (maximum is 65536 characters)');
  const count = await tx.store.countRecords(repo.id, 'comment', String(pull.number));
  if (count >= MAX_COMMENTS)
    throw GitHubApiError.unprocessable(`Commenting is limited to ${MAX_COMMENTS} comments on an issue`);
  const comment: CommentRecord = {
    id: await tx.store.nextId(),
    issueNumber: pull.number,
    body: text,
    user: tx.actor,
    createdAt: tx.timestamp,
    updatedAt: tx.timestamp,
  };
  await tx.store.saveRecord('comment', comment.id, repo.id, String(pull.number), comment);
  await tx.emit('issue_comment', repo, {
    action: 'created',
    issue: tx.shapes.issueOfPull(repo, pull, count + 1),
    comment: tx.shapes.comment(repo, comment),
  });
  return tx.shapes.comment(repo, comment);
}

/** A comment of this repository's conversations; another repository's is not found, as on GitHub. */
async function commentOf(tx: ForgeTransaction, repo: RepositoryRecord, id: number): Promise<CommentRecord> {
  const found = await tx.store.recordWithRepository<CommentRecord>('comment', id);
  if (!found || found.repositoryId !== repo.id) throw GitHubApiError.notFound();
  return found.data;
}

export async function getComment(tx: ForgeTransaction, owner: string, name: string, id: number) {
  const repo = await tx.repository(owner, name);
  return tx.shapes.comment(repo, await commentOf(tx, repo, id));
}

/** `PATCH /issues/comments/{id}`: a new body, announced as `issue_comment` `edited` with the old one. */
export async function updateComment(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  id: number,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const comment = await commentOf(tx, repo, id);
  const text = requiredString(body, 'body');
  if (codePointLength(text, 65_536) > 65_536)
    throw GitHubApiError.unprocessable('Body is too long (maximum is 65536 characters)');
  const next: CommentRecord = { ...comment, body: text, updatedAt: tx.timestamp };
  await tx.store.saveRecord('comment', next.id, repo.id, String(next.issueNumber), next);
  const pull = await tx.pull(repo, next.issueNumber);
  const count = await tx.store.countRecords(repo.id, 'comment', String(pull.number));
  await tx.emit('issue_comment', repo, {
    action: 'edited',
    changes: { body: { from: comment.body } },
    issue: tx.shapes.issueOfPull(repo, pull, count),
    comment: tx.shapes.comment(repo, next),
  });
  return tx.shapes.comment(repo, next);
}

export async function listComments(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  return (await tx.store.records<CommentRecord>(repo.id, 'comment', String(pull.number))).map((comment) =>
    tx.shapes.comment(repo, comment),
  );
}

// --- labels --------------------------------------------------------------------------------------------

const labelNamed = (repo: RepositoryRecord, name: string): LabelRecord => ({
  id: stableId(`label:${repo.id}:${name.toLowerCase()}`),
  name,
  color: 'ededed',
  description: null,
});

const tooManyLabels = () =>
  GitHubApiError.unprocessable('Validation Failed', [
    {
      resource: 'Issue',
      field: 'labels',
      code: 'custom',
      message: `An issue may have at most ${MAX_LABELS} labels`,
    },
  ]);

function labelNames(body: Body | unknown[]): string[] {
  const raw = Array.isArray(body) ? body : body.labels;
  if (!Array.isArray(raw))
    throw GitHubApiError.unprocessable('Invalid request.\n\n"labels" wasn\'t supplied.');
  if (raw.length > MAX_LABELS) throw tooManyLabels();
  return raw.map((entry) => {
    const label =
      typeof entry === 'string'
        ? entry
        : typeof entry === 'object' && entry !== null
          ? (entry as { name?: unknown }).name
          : undefined;
    if (typeof label !== 'string' || label.trim() === '')
      throw GitHubApiError.unprocessable('Validation Failed');
    if (codePointLength(label, MAX_LABEL_NAME_LENGTH) > MAX_LABEL_NAME_LENGTH)
      throw GitHubApiError.unprocessable('Validation Failed', [
        {
          resource: 'Label',
          field: 'name',
          code: 'custom',
          message: `name is too long (maximum is ${MAX_LABEL_NAME_LENGTH} characters)`,
        },
      ]);
    return label;
  });
}

export async function listLabels(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const repo = await tx.repository(owner, name);
  return (await tx.pull(repo, number)).labels.map((label) => tx.shapes.label(repo, label));
}

export async function addLabels(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body | unknown[],
  replace: boolean,
) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const wanted = labelNames(body).map((label) => labelNamed(repo, label));
  const has = (list: readonly LabelRecord[], label: LabelRecord) =>
    list.some((known) => known.name.toLowerCase() === label.name.toLowerCase());
  const removed = replace ? pull.labels.filter((label) => !has(wanted, label)) : [];
  const kept = pull.labels.filter((label) => !has(removed, label));
  const added = wanted.filter(
    (label, index) =>
      !has(kept, label) &&
      wanted.findIndex((other) => other.name.toLowerCase() === label.name.toLowerCase()) === index,
  );
  if (kept.length + added.length > MAX_LABELS) throw tooManyLabels();
  let next: PullRecord = { ...pull, labels: kept, updatedAt: tx.timestamp };
  // Labels change none of what the rest of a pull request's JSON is computed from.
  const context = await tx.pullContext(repo, next);
  for (const label of removed)
    await tx.emitPull(repo, next, 'unlabeled', { label: tx.shapes.label(repo, label) }, context);
  for (const label of added) {
    next = { ...next, labels: [...next.labels, label] };
    await tx.emitPull(repo, next, 'labeled', { label: tx.shapes.label(repo, label) }, context);
  }
  await tx.savePull(repo, next);
  return next.labels.map((label) => tx.shapes.label(repo, label));
}

export async function removeLabel(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  label: string,
) {
  const repo = await tx.repository(owner, name);
  const pull = await tx.pull(repo, number);
  const found = pull.labels.find((known) => known.name.toLowerCase() === label.toLowerCase());
  if (!found) throw new GitHubApiError(404, 'Label does not exist');
  const next: PullRecord = {
    ...pull,
    labels: pull.labels.filter((known) => known !== found),
    updatedAt: tx.timestamp,
  };
  await tx.savePull(repo, next);
  await tx.emitPull(repo, next, 'unlabeled', { label: tx.shapes.label(repo, found) });
  return next.labels.map((each) => tx.shapes.label(repo, each));
}

/** The `pull-request-simple` shape of lists: the full one without the fields computed per pull request. */
function simplePull(full: Awaited<ReturnType<ForgeTransaction['pullJson']>>) {
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
