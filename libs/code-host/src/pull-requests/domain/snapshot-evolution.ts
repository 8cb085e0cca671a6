import type { CheckOnHead, PullRequestSnapshot } from '../../port/pull-request-snapshot';
import type {
  CheckRunReported,
  CommitStatusReported,
  PullRequestChanged,
  PullRequestReviewed,
} from '../../webhooks/facts/github-fact.events';
import type { PullRequestRead } from './pull-request-state.events';

/**
 * A webhook's pull-request object updates every field it carries. What payloads do not carry
 * (reviews, files, commits, how far behind) is kept until the next read; checks belong to a head
 * commit, so a new head starts with none.
 */
export function withPullRequestChange(
  current: PullRequestSnapshot | null,
  change: PullRequestChanged['data'],
): PullRequestSnapshot {
  const next = change.pullRequest;
  if (!current) return next;
  const sameHead = current.head.sha === next.head.sha;
  return {
    ...next,
    reviews: current.reviews,
    files: current.files,
    commits: current.commits,
    commitsBehind: sameHead && current.base.sha === next.base.sha ? current.commitsBehind : null,
    checks: sameHead ? current.checks : [],
  };
}

/** A submitted or dismissed review replaces any earlier copy of the same review. */
export function withReview(
  current: PullRequestSnapshot,
  reviewed: PullRequestReviewed['data'],
): PullRequestSnapshot {
  const reviews = current.reviews.filter((review) => review.id !== reviewed.review.id);
  const review =
    reviewed.action === 'dismissed' ? { ...reviewed.review, state: 'DISMISSED' as const } : reviewed.review;
  return { ...current, reviews: [...reviews, review] };
}

/** A check run or commit status on the snapshot's head commit; reports on other commits change nothing. */
export function withCheckReport(
  current: PullRequestSnapshot,
  report: CheckRunReported['data'] | CommitStatusReported['data'],
): PullRequestSnapshot {
  const sha = 'headSha' in report ? report.headSha : report.sha;
  if (current.head.sha !== sha) return current;
  return { ...current, checks: withCheck(current.checks, report.check) };
}

/** A read through the code host is the whole truth at its time. */
export function withRead(
  _current: PullRequestSnapshot | null,
  read: PullRequestRead['data'],
): PullRequestSnapshot {
  return read.snapshot;
}

/** One entry per check (source, app, name): a newer report replaces the older one. */
export function withCheck(checks: readonly CheckOnHead[], check: CheckOnHead): CheckOnHead[] {
  const same = (other: CheckOnHead) =>
    other.name === check.name && other.source === check.source && other.appSlug === check.appSlug;
  return [...checks.filter((other) => !same(other)), check];
}
