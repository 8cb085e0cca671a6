import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import type { AppInstallation } from '../../adapter/github-clients';
import type { InstallationChanged } from '@switchyard/code-host/facts';
import { InstallationReconciliation } from './installation-reconciliation';

describe('InstallationReconciliation', () => {
  const quiet = { info: () => undefined };
  let listing: AppInstallation[];
  const lister = { listInstallations: () => Promise.resolve(listing) };

  async function recorded(store: InMemoryEventStore): Promise<InstallationChanged['data'][]> {
    const { events } = await store.readAll({
      after: 'start',
      limit: 100,
      filter: { eventTypes: ['github.installation_changed'] },
    });
    return events.map((event) => event.data as InstallationChanged['data']);
  }

  it('records an installation made before start-up, as its webhook would, and nothing twice', async () => {
    const store = new InMemoryEventStore();
    listing = [{ id: 7, account: 'acme', repositories: ['Acme/App', 'acme/api'] }];

    // Two processes starting at once, then a restart: one record.
    await Promise.all([
      new InstallationReconciliation(store, new CommandService(store), lister, quiet).reconcile(),
      new InstallationReconciliation(store, new CommandService(store), lister, quiet).reconcile(),
    ]);
    expect(
      await new InstallationReconciliation(store, new CommandService(store), lister, quiet).reconcile(),
    ).toEqual([]);
    expect(await recorded(store)).toEqual([
      {
        installationId: 7,
        account: 'acme',
        action: 'listed',
        repositoriesAdded: ['acme/api', 'acme/app'],
        repositoriesRemoved: [],
      },
    ]);
  });

  it('records repositories removed and installations deleted while it was down', async () => {
    const store = new InMemoryEventStore();
    await store.appendToStream(
      'github_installation-7',
      [
        {
          eventId: '00000000-0000-4000-8000-000000000001',
          type: 'github.installation_changed',
          data: {
            installationId: 7,
            account: 'acme',
            action: 'created',
            repositoriesAdded: ['acme/app', 'acme/api'],
            repositoriesRemoved: [],
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    await store.appendToStream(
      'github_installation-8',
      [
        {
          eventId: '00000000-0000-4000-8000-000000000002',
          type: 'github.installation_changed',
          data: {
            installationId: 8,
            account: 'other',
            action: 'created',
            repositoriesAdded: ['other/lib'],
            repositoriesRemoved: [],
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    listing = [{ id: 7, account: 'acme', repositories: ['acme/app', 'acme/web'] }];

    expect(
      await new InstallationReconciliation(store, new CommandService(store), lister, quiet).reconcile(),
    ).toEqual([
      { installationId: 7, added: ['acme/web'], removed: ['acme/api'] },
      { installationId: 8, added: [], removed: ['other/lib'] },
    ]);
    expect(
      await new InstallationReconciliation(store, new CommandService(store), lister, quiet).reconcile(),
    ).toEqual([]);
    expect((await recorded(store)).slice(2)).toEqual([
      expect.objectContaining({
        installationId: 7,
        repositoriesAdded: ['acme/web'],
        repositoriesRemoved: ['acme/api'],
      }),
      expect.objectContaining({
        installationId: 8,
        repositoriesAdded: [],
        repositoriesRemoved: ['other/lib'],
      }),
    ]);
  });

  it('never takes a repository a webhook added during the listing for one removed', async () => {
    const store = new InMemoryEventStore();
    // GitHub answered the listing, then the repository was added and its webhook recorded.
    const racing = {
      async listInstallations(): Promise<AppInstallation[]> {
        const answer = [{ id: 9, account: 'acme', repositories: ['acme/app'] }];
        await store.appendToStream(
          'github_installation-9',
          [
            {
              eventId: '00000000-0000-4000-8000-000000000009',
              type: 'github.installation_changed',
              data: {
                installationId: 9,
                account: 'acme',
                action: 'added',
                repositoriesAdded: ['acme/new'],
                repositoriesRemoved: [],
              },
            },
          ],
          { expectedRevision: 'any' },
        );
        return answer;
      },
    };

    const changes = await new InstallationReconciliation(
      store,
      new CommandService(store),
      racing,
      quiet,
    ).reconcile();
    expect(changes).toEqual([{ installationId: 9, added: ['acme/app'], removed: [] }]);
    expect((await recorded(store)).flatMap((data) => data.repositoriesRemoved)).toEqual([]);
  });
});
