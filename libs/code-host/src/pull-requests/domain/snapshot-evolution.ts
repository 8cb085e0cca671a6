import type { CheckOnHead, PullRequestSnapshot } from '../../port/pull-request-snapshot';
import type {
  CheckRunReported,
  CommitStatusReported,
  PullRequestChanged,
  PullRequestReviewed,
} from '../../facts/github-fact.events';
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

/**
 * A read through the code host is the whole truth at its time, except for checks: a read is sent
 * before it is recorded, so a check that completed in between can arrive as a fact first and then
 * be overwritten by the read's older copy of it, after which no fact would ever come to correct it
 * (a batch would wait on a pending check forever). On the same head, each check keeps whichever
 * copy is later in that check's own life.
 */
export function withRead(
  current: PullRequestSnapshot | null,
  read: PullRequestRead['data'],
): PullRequestSnapshot {
  const snapshot = read.snapshot;
  if (!current || current.head.sha !== snapshot.head.sha) return snapshot;
  let checks = snapshot.checks;
  for (const known of current.checks) {
    const inRead = checks.find((check) => sameCheck(check, known));
    if (!inRead || isLaterInItsLife(known, inRead)) checks = withCheck(checks, known);
  }
  return checks === snapshot.checks ? snapshot : { ...snapshot, checks };
}

const sameCheck = (a: CheckOnHead, b: CheckOnHead): boolean =>
  a.name === b.name && a.source === b.source && a.appSlug === b.appSlug;

/**
 * Whether `a` is a later state of a check than `b`: a run started later (a re-run) is later; on the
 * same start, a completed run is later than a pending one, and a later completion later still.
 */
function isLaterInItsLife(a: CheckOnHead, b: CheckOnHead): boolean {
  const started = compareInstants(a.startedAt, b.startedAt);
  if (started !== 0) return started > 0;
  if ((a.completedAt === null) !== (b.completedAt === null)) return a.completedAt !== null;
  return compareInstants(a.completedAt, b.completedAt) > 0;
}

/** Orders ISO instants (null first); both sides come from the same code host, in the same format. */
const compareInstants = (a: string | null, b: string | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : Date.parse(a) - Date.parse(b);

/** One entry per check (source, app, name): a newer report replaces the older one. */
export function withCheck(checks: readonly CheckOnHead[], check: CheckOnHead): CheckOnHead[] {
  return [...checks.filter((other) => !sameCheck(other, check)), check];
}
