import type { PullRequestSnapshot } from '../../port/pull-request-snapshot';
import type { GitHubUser, MergifyCommandName } from '../../facts/github-fact.events';

/** The pull request as read through the code host (on open, push, or a refresh): the whole snapshot. */
export interface PullRequestRead {
  type: 'github.pull_request_read';
  data: { repository: string; number: number; snapshot: PullRequestSnapshot; reason: string; at: string };
}

/**
 * A `@mergify` command whose author may give it (queue-semantics §1.9): the merge-queue engine
 * acts on it; `refresh` was already carried out (a `github.pull_request_read` follows it).
 */
export interface CommandAccepted {
  type: 'github.command_accepted';
  data: {
    repository: string;
    number: number;
    command: MergifyCommandName;
    argument: string | null;
    author: GitHubUser;
    commentId: number;
    commentUrl: string;
    permission: string;
    at: string;
  };
}

export interface CommandRefused {
  type: 'github.command_refused';
  data: {
    repository: string;
    number: number;
    command: MergifyCommandName;
    author: GitHubUser;
    commentId: number;
    permission: string;
    reason: string;
    at: string;
  };
}

export type PullRequestStateEvent = PullRequestRead | CommandAccepted | CommandRefused;

export const pullRequestStateEventTypes: readonly PullRequestStateEvent['type'][] = [
  'github.pull_request_read',
  'github.command_accepted',
  'github.command_refused',
];
