import type { CheckOnHead, PullRequestLabel, PullRequestSnapshot } from '@switchyard/code-host';
import { SNAPSHOT_TABLE } from '@switchyard/code-host/pull-requests/projection/pull-request-snapshots.projection';
import type { SqlQueryable } from '@switchyard/sql';

/** The part of a pull-request snapshot the status endpoints show. */
export type PullRequestFacts = Pick<
  PullRequestSnapshot,
  'number' | 'title' | 'author' | 'authorId' | 'labels' | 'labelDetails' | 'checks'
> & {
  repository: { fullName: string };
};

interface FactsRow {
  number: number;
  title: string | null;
  author: string | null;
  author_id: number | string | null;
  full_name: string | null;
  labels: string[] | string | null;
  label_details: PullRequestLabel[] | string | null;
  checks: CheckOnHead[] | string | null;
}

const parsed = <T>(value: T | string | null, fallback: T): T =>
  value === null ? fallback : typeof value === 'string' ? (JSON.parse(value) as T) : value;

/**
 * Titles, authors, labels and checks of a repository's pull requests from the code host's
 * snapshot read model, read together and kept until that read model moves for the repository.
 */
export class QueueMetadata {
  private readonly cache = new Map<string, { position: string; facts: Map<number, PullRequestFacts> }>();

  constructor(private readonly sql: SqlQueryable) {}

  /** How far the snapshot read model has gone for the repository: the facts change with it. */
  async position(repository: string): Promise<string> {
    const { rows } = await this.sql.query<{ position: string | null }>(
      `SELECT max(last_position) AS position FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1`,
      [repository.toLowerCase()],
    );
    return rows[0]?.position ?? '';
  }

  async of(
    repository: string,
    numbers: readonly number[],
    known?: string,
  ): Promise<Map<number, PullRequestFacts>> {
    const key = repository.toLowerCase();
    const position = known ?? (await this.position(repository));
    const cached = this.cache.get(key);
    if (cached && cached.position === position && numbers.every((n) => cached.facts.has(n)))
      return cached.facts;
    const { rows } = await this.sql.query<FactsRow>(
      `SELECT number, snapshot->>'title' AS title, snapshot->>'author' AS author,
              snapshot->>'authorId' AS author_id,
              snapshot->'repository'->>'fullName' AS full_name, snapshot->'labels' AS labels,
              snapshot->'labelDetails' AS label_details,
              snapshot->'checks' AS checks
       FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND number = ANY($2::int[])`,
      [key, [...numbers]],
    );
    const facts = new Map<number, PullRequestFacts>();
    for (const row of rows)
      facts.set(row.number, {
        number: row.number,
        title: row.title ?? '',
        author: row.author ?? '',
        // Snapshots recorded before the code host's ids were kept have neither.
        ...(row.author_id === null ? {} : { authorId: Number(row.author_id) }),
        labels: parsed<string[]>(row.labels, []),
        ...(row.label_details === null
          ? {}
          : { labelDetails: parsed<PullRequestLabel[]>(row.label_details, []) }),
        checks: parsed<CheckOnHead[]>(row.checks, []),
        repository: { fullName: row.full_name ?? repository },
      });
    // Numbers without a snapshot stay unknown; remembering the asked set keeps the cache honest.
    for (const n of numbers) if (!facts.has(n)) facts.set(n, unknownFacts(n, repository));
    this.cache.set(key, { position, facts });
    return facts;
  }
}

const unknownFacts = (number: number, repository: string): PullRequestFacts => ({
  number,
  title: '',
  author: '',
  labels: [],
  checks: [],
  repository: { fullName: repository },
});
