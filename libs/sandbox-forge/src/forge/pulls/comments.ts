import { codePointLength } from '@switchyard/kernel';
import { GitHubApiError, requiredString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import type { CommentRecord, RepositoryRecord } from '../sandbox-records';
import { loadPull } from './pull-change';

/** The comments of a pull request's conversation (GitHub's issue comments). */
type Body = Record<string, unknown>;

/** GitHub's limit: 2,500 comments on an issue. */
export const MAX_COMMENTS = 2_500;

export async function createComment(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body,
) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
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
  const { repo, pull } = await loadPull(tx, owner, name, number);
  return (await tx.store.records<CommentRecord>(repo.id, 'comment', String(pull.number))).map((comment) =>
    tx.shapes.comment(repo, comment),
  );
}
