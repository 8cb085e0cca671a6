import { isDeepStrictEqual } from 'node:util';
import type { DomainEvent, EventMetadata, EventStore } from '@switchyard/event-store';
import {
  type CommandOutcome,
  type CommandService,
  loadStreamState,
} from '@switchyard/event-store/application';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import type { MergeQueueEvent } from '../domain/events';
import { pullRequestScopesDecider, pullRequestScopesStreamId } from '../domain/scopes/pull-request-scopes';
import type { QueueState } from '../domain/state';
import type { RepositoryConfigurations } from './repository-configuration';

/** Issues one command on a queue stream; reactors pass their own idempotent issuer. */
export type IssueOnQueue = (
  streamId: string,
  command: MergeQueueCommand,
  options?: { idempotencyKey?: string; metadata?: EventMetadata },
) => Promise<CommandOutcome<MergeQueueEvent>>;

/**
 * The engine's door to one queue stream: its current state, and commands preceded by the
 * repository's configuration whenever the queue still plans with another one.
 */
export class QueueDesk {
  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandService,
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

  /** Issues through the command service, idempotent under `idempotencyKey` when given. */
  readonly direct: IssueOnQueue = (streamId, command, options = {}) =>
    this.commands.handle(streamId, snapshottingMergeQueueDecider, command, options.metadata ?? {}, {
      ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
    });

  /** Applies the repository's current configuration first when the queue plans with another. */
  async issue(
    command: MergeQueueCommand,
    issue: IssueOnQueue = this.direct,
    options: { idempotencyKey?: string; metadata?: EventMetadata } = {},
  ): Promise<CommandOutcome<MergeQueueEvent>> {
    const streamId = mergeQueueStreamId(command.repository, command.baseRef);
    const [{ state }, configuration] = await Promise.all([
      this.state(command.repository, command.baseRef),
      this.configurations.get(command.repository),
    ]);
    // Compared by value: the stored policy comes back from jsonb with its keys in another order.
    if (!isDeepStrictEqual(state.policy, configuration.policy))
      await this.direct(
        streamId,
        {
          kind: 'apply_configuration',
          repository: command.repository,
          baseRef: command.baseRef,
          at: command.at,
          policy: configuration.policy,
        },
        { ...(options.metadata ? { metadata: options.metadata } : {}) },
      );
    return issue(streamId, command, options);
  }
}

export const metadataFrom = (event: { eventId: string; metadata: EventMetadata }): EventMetadata => ({
  correlationId: event.metadata.correlationId ?? event.eventId,
  causationId: event.eventId,
});

export type { DomainEvent };
