import type { GitHubSettings } from '@switchyard/platform';
import type { SqlQueryable } from '@switchyard/sql';
import { INSTALLED_REPOSITORIES_TABLE } from '../projection/installed-repositories.projection';

/**
 * Which repositories Switchyard serves through its code host. GitHub mode: those an installation
 * of the App covers (others answer 404 on code-host-backed endpoints). Sandbox mode: any, since the
 * sandbox forge creates a repository on first reference.
 */
export class RepositoryCoverage {
  constructor(
    private readonly sql: SqlQueryable,
    private readonly mode: GitHubSettings['mode'],
  ) {}

  async covers(repository: string): Promise<boolean> {
    if (this.mode === 'sandbox') return true;
    const { rows } = await this.sql.query(
      `SELECT 1 FROM ${INSTALLED_REPOSITORIES_TABLE} WHERE repository_key = $1`,
      [repository.toLowerCase()],
    );
    return rows.length > 0;
  }
}
