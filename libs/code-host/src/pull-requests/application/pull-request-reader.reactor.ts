import type { Logger } from '@switchyard/kernel';
import type { RecordedEvent } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import type { ReactionContext, Reactor } from '@switchyard/projection';
import type { CodeHost, RepositoryCoordinates } from '../../port/code-host';
import { isCodeHostError } from '../../port/code-host-error';
import type { PullRequestSnapshot, PullRequestSummary } from '../../port/pull-request-snapshot';
import type { CommandCommented, PullRequestChanged } from '../../facts/github-fact.events';
import { pullRequestStreamId } from '../../facts/github-streams';
import { commandRefusal } from '../domain/command-permission';
import { pullRequestStateDecider } from '../domain/pull-request-state.decider';

/** Actions after which a payload's snapshot lacks what only a read gives (files, commits, checks). */
const READ_AFTER: readonly string[] = ['opened', 'reopened', 'synchronize', 'edited', 'ready_for_review'];

/**
 * Reads pull requests through the code host when webhook payloads are not enough (a pull request
 * opened or pushed to), and decides `@mergify` commands: the commenter's permission (§1.9), then
 * for `refresh` a fresh read. Results are recorded on the pull request's stream; a reaction run
 * again after a crash records nothing twice.
 */
export function createPullRequestReaderReactor(deps: {
  codeHost: CodeHost;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
}): Reactor {
  const { codeHost, clock, logger } = deps;

  async function readInto(context: ReactionContext, repository: string, number: number, reason: string) {
    const snapshot = await codeHost.getPullRequest(coordinates(repository), number);
    await record(context, repository, number, snapshot, reason);
  }

  async function record(
    context: ReactionContext,
    repository: string,
    number: number,
    snapshot: PullRequestSnapshot,
    reason: string,
  ) {
    await context.issue(pullRequestStreamId(repository, number), pullRequestStateDecider, {
      type: 'record_read',
      event: {
        type: 'github.pull_request_read',
        data: { repository, number, snapshot, reason, at: clock.now().toISOString() },
      },
    });
  }

  async function decideCommand(context: ReactionContext, data: CommandCommented['data']) {
    // One read of the pull request per command: `refresh` records the whole snapshot it decides
    // on; any other command needs only its author and head, which the summary holds in one call.
    const snapshot =
      data.command === 'refresh' ? codeHost.getPullRequest(coordinates(data.repository), data.number) : null;
    const [permission, pullRequest] = await Promise.all([
      codeHost.getPermission(coordinates(data.repository), data.author.login),
      snapshot ?? codeHost.getPullRequestSummary(coordinates(data.repository), data.number),
    ]);
    const refusal = commandRefusal({
      command: data.command,
      author: data.author.login,
      authorPermission: permission,
      pullRequestAuthor: pullRequest.author,
      fromFork: isFork(pullRequest),
    });
    const at = clock.now().toISOString();
    const streamId = pullRequestStreamId(data.repository, data.number);
    const common = {
      repository: data.repository,
      number: data.number,
      command: data.command,
      author: data.author,
    };
    await context.issue(streamId, pullRequestStateDecider, {
      type: 'decide_command',
      event: refusal
        ? {
            type: 'github.command_refused',
            data: { ...common, commentId: data.commentId, permission, reason: refusal, at },
          }
        : {
            type: 'github.command_accepted',
            data: {
              ...common,
              argument: data.argument,
              commentId: data.commentId,
              commentUrl: data.commentUrl,
              permission,
              at,
            },
          },
    });
    if (!refusal && snapshot) await record(context, data.repository, data.number, await snapshot, 'refresh');
  }

  return {
    name: 'code_host.pull_request_reader',
    eventTypes: ['github.pull_request_changed', 'github.command_commented'],
    async react(recorded: RecordedEvent, context: ReactionContext) {
      try {
        if (recorded.type === 'github.pull_request_changed') {
          const data = recorded.data as PullRequestChanged['data'];
          if (READ_AFTER.includes(data.action))
            await readInto(context, data.repository, data.number, data.action);
        } else if (recorded.type === 'github.command_commented') {
          await decideCommand(context, recorded.data as CommandCommented['data']);
        }
      } catch (error) {
        // A host that is down is retried (the runner reacts again); a pull request that is gone or
        // hidden from us has nothing left to read.
        if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
        logger.warn(
          { err: error, event: recorded.type, position: recorded.position },
          'code host refused a read',
        );
      }
    },
  };
}

function coordinates(repository: string): RepositoryCoordinates {
  const [owner, name] = repository.split('/') as [string, string];
  return { owner, name };
}

const isFork = (snapshot: PullRequestSummary): boolean =>
  snapshot.head.repositoryFullName.toLowerCase() !== snapshot.repository.fullName.toLowerCase();
