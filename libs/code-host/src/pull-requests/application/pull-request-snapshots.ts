import type { SqlQueryable } from '@switchyard/sql';
import type { PullRequestSnapshot } from '../../port/pull-request-snapshot';
import { SNAPSHOT_TABLE } from '../projection/pull-request-snapshots.projection';

/**
 * Reads the pull-request snapshots the projection keeps (for condition evaluation, the
 * configuration simulator and the engine). `repository` is `owner/name`, any case.
 */
export class PullRequestSnapshots {
  constructor(private readonly sql: SqlQueryable) {}

  async find(repository: string, number: number): Promise<PullRequestSnapshot | null> {
    const { rows } = await this.sql.query<{ snapshot: PullRequestSnapshot | string }>(
      `SELECT snapshot FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND number = $2`,
      [repository.toLowerCase(), number],
    );
    return rows[0] ? parse(rows[0].snapshot) : null;
  }

  /** The snapshots of these pull requests that exist, by number, in one query. */
  async findMany(repository: string, numbers: readonly number[]): Promise<Map<number, PullRequestSnapshot>> {
    const { rows } = await this.sql.query<{ number: number; snapshot: PullRequestSnapshot | string }>(
      `SELECT number, snapshot FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND number = ANY($2::int[])`,
      [repository.toLowerCase(), [...new Set(numbers)]],
    );
    return new Map(rows.map((row) => [row.number, parse(row.snapshot)]));
  }

  /** The repository's open pull requests (a configuration that turns valid again concerns these). */
  async open(repository: string): Promise<PullRequestSnapshot[]> {
    const { rows } = await this.sql.query<{ snapshot: PullRequestSnapshot | string }>(
      `SELECT snapshot FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND state = 'open' ORDER BY number`,
      [repository.toLowerCase()],
    );
    return rows.map((row) => parse(row.snapshot));
  }

  /** Open pull requests whose head is `sha` (a check reported on a commit concerns these). */
  async openWithHead(repository: string, sha: string): Promise<PullRequestSnapshot[]> {
    const { rows } = await this.sql.query<{ snapshot: PullRequestSnapshot | string }>(
      `SELECT snapshot FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND head_sha = $2 AND state = 'open' ORDER BY number`,
      [repository.toLowerCase(), sha],
    );
    return rows.map((row) => parse(row.snapshot));
  }
}

const parse = (value: PullRequestSnapshot | string): PullRequestSnapshot =>
  typeof value === 'string' ? (JSON.parse(value) as PullRequestSnapshot) : value;
