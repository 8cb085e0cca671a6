import type { CheckOnHead, PullRequestReview, PullRequestSnapshot } from '../port/pull-request-snapshot';

/**
 * Facts GitHub reported by webhook, one event per delivery, on the pull request's, the
 * repository's or the installation's stream. Type names are stable storage keys; `repository` is
 * `owner/name` lower-cased, as every other Switchyard stream names repositories.
 */
export interface GitHubUser {
  login: string;
  id: number;
  type: string;
}

/** Any `pull_request` action: the pull-request object as it is after the change. */
export interface PullRequestChanged {
  type: 'github.pull_request_changed';
  data: {
    repository: string;
    number: number;
    action: string;
    /** The pull request as the payload shows it; reviews, files, commits and checks are not in payloads. */
    pullRequest: PullRequestSnapshot;
    /** The label of a labeled / unlabeled action. */
    label: string | null;
    sender: string;
  };
}

export interface PullRequestReviewed {
  type: 'github.pull_request_reviewed';
  data: { repository: string; number: number; action: string; review: PullRequestReview; sender: string };
}

/** A check run created or changed on a commit; `pullRequests` are those GitHub associated with it. */
export interface CheckRunReported {
  type: 'github.check_run_reported';
  data: {
    repository: string;
    headSha: string;
    checkRunId: number;
    action: string;
    check: CheckOnHead;
    pullRequests: number[];
  };
}

export interface CheckSuiteReported {
  type: 'github.check_suite_reported';
  data: {
    repository: string;
    headSha: string;
    checkSuiteId: number;
    action: string;
    status: string | null;
    conclusion: string | null;
    appSlug: string | null;
    pullRequests: number[];
  };
}

export interface CommitStatusReported {
  type: 'github.commit_status_reported';
  data: { repository: string; sha: string; check: CheckOnHead };
}

export interface BranchPushed {
  type: 'github.branch_pushed';
  data: {
    repository: string;
    /** `refs/heads/main`, `refs/tags/v1`... */
    ref: string;
    before: string;
    after: string;
    created: boolean;
    deleted: boolean;
    forced: boolean;
    pusher: string;
  };
}

/** An installation created, deleted, suspended..., or repositories added to / removed from it. */
export interface InstallationChanged {
  type: 'github.installation_changed';
  data: {
    installationId: number;
    account: string;
    action: string;
    repositoriesAdded: string[];
    repositoriesRemoved: string[];
  };
}

/** A `@mergify <command>` comment on a pull request, before its author's permission is checked. */
export interface CommandCommented {
  type: 'github.command_commented';
  data: {
    repository: string;
    number: number;
    command: MergifyCommandName;
    /** `queue <rule>`: the rule; null without one. */
    argument: string | null;
    author: GitHubUser;
    commentId: number;
    commentUrl: string;
  };
}

export type MergifyCommandName = 'queue' | 'dequeue' | 'requeue' | 'refresh';

export type GitHubFactEvent =
  | PullRequestChanged
  | PullRequestReviewed
  | CheckRunReported
  | CheckSuiteReported
  | CommitStatusReported
  | BranchPushed
  | InstallationChanged
  | CommandCommented;

export const gitHubFactEventTypes: readonly GitHubFactEvent['type'][] = [
  'github.pull_request_changed',
  'github.pull_request_reviewed',
  'github.check_run_reported',
  'github.check_suite_reported',
  'github.commit_status_reported',
  'github.branch_pushed',
  'github.installation_changed',
  'github.command_commented',
];
