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
 * commit, so a new head starts with none. GitHub does not promise to deliver webhooks in order: a
 * payload from an earlier second than what is known (`updatedAt`) arrived late and changes nothing
 * (an `opened` delivered after `labeled` would take the label off). Within one second the order
 * they were recorded in is all there is.
 */
export function withPullRequestChange(
  current: PullRequestSnapshot | null,
  change: PullRequestChanged['data'],
): PullRequestSnapshot {
  const next = change.pullRequest;
  if (!current) return next;
  if (compareInstants(next.updatedAt, current.updatedAt) < 0) return current;
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
 * A read through the code host is the whole truth at its time, but it is recorded some time after
 * it was sent. A change whose webhook fact was recorded in between (a label put on just after the
 * pull request opened) would be undone by the read's older copy, and no fact would come to set it
 * again: the label would be lost for good. So a read takes over what webhooks tell (labels, state,
 * head, title...) only when the pull request was updated after what is known (`updatedAt`, in
 * seconds as GitHub gives it); a read from the same second or earlier adds only what reads alone
 * tell (reviews, files, commits, the base branch's tip, mergeability), and leaves the rest to the facts. Checks are merged
 * either way, each keeping its copy that is later in its own life.
 */
export function withRead(
  current: PullRequestSnapshot | null,
  read: PullRequestRead['data'],
): PullRequestSnapshot {
  const snapshot = read.snapshot;
  if (!current) return snapshot;
  if (compareInstants(snapshot.updatedAt, current.updatedAt) > 0) {
    if (current.head.sha !== snapshot.head.sha) return snapshot;
    const checks = withKnownChecks(snapshot.checks, current.checks);
    return checks === snapshot.checks ? snapshot : { ...snapshot, checks };
  }
  // Reads of another head are of an older push (or of one whose fact follows, with its own read).
  if (current.head.sha !== snapshot.head.sha) return current;
  const withReadOnly = {
    ...current,
    reviews: [
      ...current.reviews,
      ...snapshot.reviews.filter((r) => !current.reviews.some((k) => k.id === r.id)),
    ],
    files: snapshot.files,
    commits: snapshot.commits,
    checks: withKnownChecks(snapshot.checks, current.checks),
  };
  // The base branch moving is in no pull_request webhook and leaves updatedAt as it is: on the
  // same base branch, where its tip stands and what follows from it (how far behind, mergeable)
  // come from the read, or a `refresh` could never bring them.
  if (current.base.ref !== snapshot.base.ref) return withReadOnly;
  return {
    ...withReadOnly,
    base: snapshot.base,
    commitsBehind: snapshot.commitsBehind,
    mergeable: snapshot.mergeable,
    mergeableState: snapshot.mergeableState,
  };
}

/** The read's checks, each replaced by the known copy when that one is later in the check's life. */
function withKnownChecks(read: CheckOnHead[], known: readonly CheckOnHead[]): CheckOnHead[] {
  let checks = read;
  for (const check of known) {
    const inRead = checks.find((other) => sameCheck(other, check));
    if (!inRead || isLaterInItsLife(check, inRead)) checks = withCheck(checks, check);
  }
  return checks;
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
