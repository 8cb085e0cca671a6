import { isDeepStrictEqual } from 'node:util';
import type { DomainEvent, EventMetadata, EventStore } from '@switchyard/event-store';
import { type CommandOutcome, loadStreamState } from '@switchyard/event-store/application';
import type { CommandIssuer, IssueOptions } from '@switchyard/projection';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import type { MergeQueueEvent } from '../domain/events';
import { pullRequestScopesDecider, pullRequestScopesStreamId } from '../domain/scopes/pull-request-scopes';
import type { QueueState } from '../domain/state';
import type { RepositoryConfigurations } from './repository-configuration';

/**
 * The engine's door to one queue stream: its current state, and commands preceded by the
 * repository's configuration whenever the queue still plans with another one. It writes nothing of
 * its own: every command goes through the issuer of the processor at work (a reaction's context,
 * the timer's fenced issuer), the one path that fences and keys a processor's commands.
 */
export class QueueDesk {
  constructor(
    private readonly store: EventStore,
    readonly configurations: RepositoryConfigurations,
  ) {}

  async state(repository: string, baseRef: string): Promise<{ state: QueueState; revision: bigint }> {
    const loaded = await loadStreamState(
      this.store,
      mergeQueueStreamId(repository, baseRef),
      snapshottingMergeQueueDecider,
    );
    return { state: loaded.state, revision: loaded.revision };
  }

  /** The scopes CI reported for the pull request (none yet: no scopes). */
  async scopesOf(repository: string, pullRequest: number): Promise<{ scopes: string[]; allScopes: boolean }> {
    const { state } = await loadStreamState(
      this.store,
      pullRequestScopesStreamId(repository, pullRequest),
      pullRequestScopesDecider,
    );
    return { scopes: state.scopes, allScopes: state.allScopes };
  }

  /**
   * Issues `command` through `issuer`, keyed as `options` say; the repository's current
   * configuration goes first when the queue plans with another. That one is decided on the
   * queue's state alone, so it is issued with no key: it takes no place in a reaction's count.
   */
  async issue(
    issuer: CommandIssuer,
    command: MergeQueueCommand,
    options: IssueOptions & { metadata?: EventMetadata } = {},
  ): Promise<CommandOutcome<MergeQueueEvent>> {
    const { metadata, ...keyed } = options;
    const streamId = mergeQueueStreamId(command.repository, command.baseRef);
    const [{ state }, configuration] = await Promise.all([
      this.state(command.repository, command.baseRef),
      this.configurations.get(command.repository),
    ]);
    // Compared by value: the stored policy comes back from jsonb with its keys in another order.
    if (!isDeepStrictEqual(state.policy, configuration.policy))
      await issuer.issue(
        streamId,
        snapshottingMergeQueueDecider,
        {
          kind: 'apply_configuration',
          repository: command.repository,
          baseRef: command.baseRef,
          at: command.at,
          policy: configuration.policy,
        },
        metadata,
        { idempotencyKey: null },
      );
    return issuer.issue(streamId, snapshottingMergeQueueDecider, command, metadata, keyed);
  }
}

export type { DomainEvent };
