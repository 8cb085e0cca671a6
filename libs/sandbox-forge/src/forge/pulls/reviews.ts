import { GitHubApiError, optionalString, stringList } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import { userNamed } from '../github-shapes';
import type { PullRecord, ReviewRecord, ReviewState } from '../sandbox-records';
import { changePull, loadPull, type PullWebhook } from './pull-change';
import { simplePull } from './pull-requests';

/** Reviews and review requests of a pull request. */
type Body = Record<string, unknown>;

/** GitHub's limit: 15 requested reviewers (users and teams) on a pull request. */
export const MAX_REQUESTED_REVIEWERS = 15;

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
  const { repo, pull } = await loadPull(tx, owner, name, number);
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
  const { repo, pull } = await loadPull(tx, owner, name, number);
  const reviews = await tx.store.records<ReviewRecord>(repo.id, 'review', String(pull.number));
  return reviews.map((review) => tx.shapes.review(repo, review));
}

export async function requestedReviewers(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
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
  const { repo, pull: next } = await changePull(tx, owner, name, number, async ({ repo, pull }) => {
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
    const webhooks: PullWebhook[] = addedUsers.map((user) => ({
      action: 'review_requested',
      extra: { requested_reviewer: tx.shapes.user(user) },
    }));
    for (const slug of addedTeams)
      webhooks.push({
        action: 'review_requested',
        extra: {
          requested_team: {
            ...tx.shapes.teamSimple(repo.owner, slug, (await tx.store.team(repo.owner, slug)) ?? undefined),
          },
        },
      });
    const next: PullRecord = {
      ...pull,
      requestedReviewers: [...pull.requestedReviewers, ...addedUsers],
      requestedTeams: [...pull.requestedTeams, ...addedTeams],
    };
    return { next, webhooks };
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
  const { repo, pull: next } = await changePull(tx, owner, name, number, ({ repo, pull }) => {
    const users = stringList(body, 'reviewers') ?? [];
    const teams = stringList(body, 'team_reviewers') ?? [];
    const removedUsers = pull.requestedReviewers.filter((user) => users.includes(user.login));
    const removedTeams = pull.requestedTeams.filter((slug) => teams.includes(slug));
    return {
      next: {
        ...pull,
        requestedReviewers: pull.requestedReviewers.filter((user) => !users.includes(user.login)),
        requestedTeams: pull.requestedTeams.filter((slug) => !teams.includes(slug)),
      },
      webhooks: [
        ...removedUsers.map((user) => ({
          action: 'review_request_removed',
          extra: { requested_reviewer: tx.shapes.user(user) },
        })),
        ...removedTeams.map((slug) => ({
          action: 'review_request_removed',
          extra: { requested_team: tx.shapes.teamSimple(repo.owner, slug) },
        })),
      ],
    };
  });
  return simplePull(await tx.pullJson(repo, next));
}
