import type { Decider } from '@switchyard/kernel';

/**
 * The merge-queue scopes CI reported for a pull request (`mergify ci scopes-send`), kept on the pull
 * request's own stream: CI sends them before the pull request is queued, and the queue reads them
 * when it enters (and re-plans with them while it is queued).
 */
export interface PullRequestScopesReported {
  type: 'merge_queue.pull_request_scopes_reported';
  data: { repository: string; pullRequest: number; scopes: string[]; allScopes: boolean; at: string };
}

export interface ReportScopes {
  repository: string;
  pullRequest: number;
  scopes: readonly string[];
  allScopes: boolean;
  at: string;
}

export interface PullRequestScopes {
  scopes: string[];
  allScopes: boolean;
  reported: boolean;
}

export const pullRequestScopesStreamId = (repository: string, pullRequest: number): string =>
  `merge_queue_scopes-${repository.toLowerCase()}#${pullRequest}`;

/** Scopes are a set: duplicates collapse, order does not matter; the same set twice records nothing. */
export const pullRequestScopesDecider: Decider<PullRequestScopes, ReportScopes, PullRequestScopesReported> = {
  initialState: () => ({ scopes: [], allScopes: false, reported: false }),
  evolve: (_state, event) => ({ scopes: event.data.scopes, allScopes: event.data.allScopes, reported: true }),
  decide(command, state) {
    const scopes = [...new Set(command.scopes)].sort();
    if (
      state.reported &&
      state.allScopes === command.allScopes &&
      state.scopes.join('\n') === scopes.join('\n')
    )
      return [];
    return [
      {
        type: 'merge_queue.pull_request_scopes_reported',
        data: {
          repository: command.repository.toLowerCase(),
          pullRequest: command.pullRequest,
          scopes,
          allScopes: command.allScopes,
          at: command.at,
        },
      },
    ];
  },
};
