import type { Logger } from '@switchyard/kernel';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { AppInstallation } from '../../adapter/github-clients';
import { installationStreamId, repositoryKey, type InstallationChanged } from '@switchyard/code-host/facts';

/** Where the App's installations are listed from (the GitHub adapter). */
export interface InstallationLister {
  listInstallations(): Promise<AppInstallation[]>;
}

export interface ReconciliationChange {
  installationId: number;
  added: string[];
  removed: string[];
}

const PAGE = 500;

/**
 * Records what a listing of the App's installations shows and the recorded installation facts do
 * not: an App installed before Switchyard first started, or repositories added or removed, or an
 * installation deleted, while it was down. The difference is recorded as the same
 * `github.installation_changed` events the installation webhooks produce, so the installed
 * repositories projection (repository coverage) follows without a webhook. Each record's
 * idempotency key is the installation stream's revision it was computed at, so a restart or two
 * processes listing at once record a difference once.
 *
 * The difference is recorded through CommandService.record, as a fact, not decided by a decider on
 * the installation stream at append time: it is computed against the facts read before the
 * listing, and deciding it again on a stream that a webhook changed since the listing would take a
 * repository that webhook added for one removed.
 */
export class InstallationReconciliation {
  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandService,
    private readonly lister: InstallationLister,
    private readonly log: Pick<Logger, 'info'>,
  ) {}

  async reconcile(): Promise<ReconciliationChange[]> {
    // The facts first, the listing second: a webhook recorded in between then only makes the
    // listing newer than the facts, so a repository it added is never taken for one removed.
    const recorded = await this.recordedInstallations();
    const listed = await this.lister.listInstallations();
    const changes: ReconciliationChange[] = [];
    const listedIds = new Set(listed.map((installation) => installation.id));

    for (const installation of listed) {
      const now = new Set(installation.repositories.map(repositoryKey));
      const before = recorded.get(installation.id)?.repositories ?? new Set<string>();
      const added = [...now].filter((repository) => !before.has(repository)).sort();
      const removed = [...before].filter((repository) => !now.has(repository)).sort();
      if (added.length || removed.length)
        changes.push(await this.record(installation.id, installation.account, added, removed));
    }
    for (const [installationId, { account, repositories }] of recorded) {
      if (listedIds.has(installationId) || repositories.size === 0) continue;
      changes.push(await this.record(installationId, account, [], [...repositories].sort()));
    }

    for (const change of changes)
      this.log.info(
        { installation: change.installationId },
        `GitHub App installation ${change.installationId} listed: ${change.added.length} repositories newly covered` +
          ` (${change.added.join(', ') || 'none'}), ${change.removed.length} no longer (${change.removed.join(', ') || 'none'})`,
      );
    if (changes.length === 0)
      this.log.info(
        { listed: listed.length },
        `GitHub App installations listed: ${listed.length}, all as recorded`,
      );
    return changes;
  }

  private async record(
    installationId: number,
    account: string,
    added: string[],
    removed: string[],
  ): Promise<ReconciliationChange> {
    const streamId = installationStreamId(installationId);
    const { revision } = await this.store.readStream(streamId);
    const event: InstallationChanged = {
      type: 'github.installation_changed',
      data: {
        installationId,
        account,
        action: 'listed',
        repositoriesAdded: added,
        repositoriesRemoved: removed,
      },
    };
    // Another process may have recorded this very difference first: then this records nothing.
    await this.commands.record(
      streamId,
      [event],
      { source: 'installation-listing' },
      { idempotencyKey: `github-installation-listing:${installationId}:${revision}` },
    );
    return { installationId, added, removed };
  }

  /** Each installation's repositories as its recorded facts leave them (as the projection folds them). */
  private async recordedInstallations(): Promise<
    Map<number, { account: string; repositories: Set<string> }>
  > {
    const installations = new Map<number, { account: string; repositories: Set<string> }>();
    let after: Awaited<ReturnType<EventStore['readAll']>>['lastPosition'] = 'start';
    for (;;) {
      const page = await this.store.readAll({
        after,
        limit: PAGE,
        filter: { eventTypes: ['github.installation_changed'] },
      });
      for (const recorded of page.events) {
        const { data } = recorded as unknown as InstallationChanged;
        const installation = installations.get(data.installationId) ?? {
          account: data.account,
          repositories: new Set<string>(),
        };
        installations.set(data.installationId, installation);
        if (data.action === 'deleted' || data.action === 'suspend') installation.repositories.clear();
        for (const repository of data.repositoriesRemoved) installation.repositories.delete(repository);
        for (const repository of data.repositoriesAdded) installation.repositories.add(repository);
      }
      if (page.endOfFeed) return installations;
      after = page.lastPosition;
    }
  }
}
