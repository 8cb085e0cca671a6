import type { Projection } from '@switchyard/projection';
import type { InstallationChanged } from '../../facts/github-fact.events';

export const INSTALLED_REPOSITORIES_TABLE = 'github_installed_repositories';

/**
 * Which repositories a GitHub App installation covers, from `installation` and
 * `installation_repositories` deliveries: in GitHub mode, the repositories Switchyard serves.
 */
export const installedRepositoriesProjection: Projection = {
  name: 'code_host.installed_repositories',
  version: 1,
  eventTypes: ['github.installation_changed'],

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${INSTALLED_REPOSITORIES_TABLE} (
        repository_key text PRIMARY KEY,
        installation_id bigint NOT NULL,
        last_position text COLLATE "C" NOT NULL
      );
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${INSTALLED_REPOSITORIES_TABLE};`);
  },

  async apply(tx, events) {
    for (const recorded of events) {
      const { data } = recorded as unknown as InstallationChanged;
      if (data.action === 'deleted' || data.action === 'suspend') {
        await tx.query(`DELETE FROM ${INSTALLED_REPOSITORIES_TABLE} WHERE installation_id = $1`, [
          data.installationId,
        ]);
      }
      for (const repository of data.repositoriesRemoved)
        await tx.query(
          `DELETE FROM ${INSTALLED_REPOSITORIES_TABLE} WHERE repository_key = $1 AND installation_id = $2`,
          [repository, data.installationId],
        );
      for (const repository of data.repositoriesAdded)
        await tx.query(
          `INSERT INTO ${INSTALLED_REPOSITORIES_TABLE} (repository_key, installation_id, last_position) VALUES ($1, $2, $3)
           ON CONFLICT (repository_key) DO UPDATE
             SET installation_id = EXCLUDED.installation_id, last_position = EXCLUDED.last_position
             WHERE ${INSTALLED_REPOSITORIES_TABLE}.last_position < EXCLUDED.last_position`,
          [repository, data.installationId, recorded.position],
        );
    }
  },
};
