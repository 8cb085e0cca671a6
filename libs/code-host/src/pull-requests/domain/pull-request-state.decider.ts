import type { Decider } from '@switchyard/kernel';
import type { PullRequestStateEvent } from './pull-request-state.events';

/** Results of work done for a pull request, recorded once: a comment's command is decided once. */
export type PullRequestStateCommand =
  | { type: 'record_read'; event: Extract<PullRequestStateEvent, { type: 'github.pull_request_read' }> }
  | {
      type: 'decide_command';
      event: Extract<PullRequestStateEvent, { type: 'github.command_accepted' | 'github.command_refused' }>;
    };

export interface PullRequestState {
  decidedComments: readonly number[];
}

export const pullRequestStateDecider: Decider<
  PullRequestState,
  PullRequestStateCommand,
  PullRequestStateEvent
> = {
  initialState: () => ({ decidedComments: [] }),
  evolve(state, event) {
    if (event.type === 'github.command_accepted' || event.type === 'github.command_refused')
      return { decidedComments: [...state.decidedComments, event.data.commentId] };
    return state;
  },
  decide(command, state) {
    if (command.type === 'decide_command' && state.decidedComments.includes(command.event.data.commentId))
      return [];
    return [command.event];
  },
};
