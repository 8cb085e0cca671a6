import type { SqlQueryable } from '@switchyard/sql';
import type { GitObject, TreeEntry } from '../git/git-objects';
import type { RepositoryRecord, StoredCommit, TeamRecord } from '../forge/sandbox-records';

export type RecordKind = 'pull' | 'comment' | 'review' | 'check_run' | 'status';

type StoredObject = { kind: string; body: Record<string, unknown> };

/**
 * Git objects never change (their sha is their content), so a process keeps those it has read or
 * committed. Objects written by a transaction join only once it commits (`commitPending`), so a
 * rolled-back write is never served from memory.
 */
export class ObjectCache {
  private readonly objects = new Map<string, StoredObject>();
  private readonly flatTrees = new Map<string, ReadonlyMap<string, string>>();

  constructor(private readonly limit = 100_000) {}

  object(sha: string): StoredObject | undefined {
    return this.objects.get(sha);
  }

  remember(sha: string, object: StoredObject): void {
    if (this.objects.size >= this.limit) this.objects.clear();
    this.objects.set(sha, object);
  }

  flatTree(sha: string): ReadonlyMap<string, string> | undefined {
    return this.flatTrees.get(sha);
  }

  rememberFlatTree(sha: string, files: ReadonlyMap<string, string>): void {
    if (this.flatTrees.size >= this.limit / 10) this.flatTrees.clear();
    this.flatTrees.set(sha, files);
  }
}

/** Reads and writes of the sandbox tables, over one connection or transaction. */
export class SandboxStore {
  private readonly pending = new Map<string, StoredObject>();

  constructor(
    private readonly sql: SqlQueryable,
    private readonly cache: ObjectCache = new ObjectCache(),
  ) {}

  /** Hands this transaction's new objects to the shared cache; call once it has committed. */
  commitPending(): void {
    for (const [sha, object] of this.pending) this.cache.remember(sha, object);
    this.pending.clear();
  }

  async nextId(): Promise<number> {
    const { rows } = await this.sql.query<{ id: string }>("SELECT nextval('sandbox_ids') AS id");
    return Number(rows[0].id);
  }

  async setting(key: string): Promise<string | null> {
    const { rows } = await this.sql.query<{ value: string }>(
      'SELECT value FROM sandbox_settings WHERE key = $1',
      [key],
    );
    return rows[0]?.value ?? null;
  }

  /** Keeps the first value written for a key, and answers it. */
  async settingOrInsert(key: string, value: string): Promise<string> {
    await this.sql.query(
      'INSERT INTO sandbox_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
      [key, value],
    );
    return (await this.setting(key)) as string;
  }

  // --- git objects ---------------------------------------------------------------------------

  async putObjects(objects: readonly GitObject[]): Promise<void> {
    for (const object of objects) {
      const body =
        object.kind === 'blob'
          ? { content: object.content.toString('base64') }
          : object.kind === 'tree'
            ? { entries: object.entries }
            : object.commit;
      if (this.cache.object(object.sha) || this.pending.has(object.sha)) continue;
      await this.sql.query(
        'INSERT INTO sandbox_objects (sha, kind, body) VALUES ($1, $2, $3) ON CONFLICT (sha) DO NOTHING',
        [object.sha, object.kind, JSON.stringify(body)],
      );
      this.pending.set(object.sha, { kind: object.kind, body: JSON.parse(JSON.stringify(body)) });
    }
  }

  async object(sha: string): Promise<StoredObject | null> {
    const known = this.cache.object(sha) ?? this.pending.get(sha);
    if (known) return known;
    const { rows } = await this.sql.query<StoredObject>(
      'SELECT kind, body FROM sandbox_objects WHERE sha = $1',
      [sha],
    );
    // Not written by this transaction (that would be pending), so committed: safe to keep.
    if (rows[0]) this.cache.remember(sha, rows[0]);
    return rows[0] ?? null;
  }

  async commit(sha: string): Promise<StoredCommit | null> {
    const object = await this.object(sha);
    if (object?.kind !== 'commit') return null;
    return { sha, ...(object.body as unknown as Omit<StoredCommit, 'sha'>) };
  }

  async tree(sha: string): Promise<readonly TreeEntry[] | null> {
    const object = await this.object(sha);
    return object?.kind === 'tree' ? (object.body.entries as TreeEntry[]) : null;
  }

  async blob(sha: string): Promise<Buffer | null> {
    const object = await this.object(sha);
    return object?.kind === 'blob' ? Buffer.from(object.body.content as string, 'base64') : null;
  }

  /** A commit's files as `path → blob sha`. */
  async flatTree(treeSha: string): Promise<Map<string, string>> {
    const known = this.cache.flatTree(treeSha);
    if (known) return new Map(known);
    const files = new Map<string, string>();
    const walk = async (sha: string, prefix: string) => {
      for (const entry of (await this.tree(sha)) ?? []) {
        if (entry.type === 'tree') await walk(entry.sha, `${prefix}${entry.name}/`);
        else files.set(`${prefix}${entry.name}`, entry.sha);
      }
    };
    await walk(treeSha, '');
    // Only trees whose objects are all committed or already cached may be shared; a tree written by
    // this transaction is kept once it commits (its objects then are too).
    if (!this.pending.has(treeSha)) this.cache.rememberFlatTree(treeSha, new Map(files));
    return files;
  }

  // --- repositories and refs -------------------------------------------------------------------

  async repository(owner: string, name: string): Promise<RepositoryRecord | null> {
    const { rows } = await this.sql.query<{ data: RepositoryRecord }>(
      'SELECT data FROM sandbox_repositories WHERE lower(owner) = lower($1) AND lower(name) = lower($2)',
      [owner, name],
    );
    return rows[0]?.data ?? null;
  }

  async repositoryById(id: number): Promise<RepositoryRecord | null> {
    const { rows } = await this.sql.query<{ data: RepositoryRecord }>(
      'SELECT data FROM sandbox_repositories WHERE id = $1',
      [id],
    );
    return rows[0]?.data ?? null;
  }

  async repositories(): Promise<RepositoryRecord[]> {
    const { rows } = await this.sql.query<{ data: RepositoryRecord }>(
      'SELECT data FROM sandbox_repositories ORDER BY id',
    );
    return rows.map((row) => row.data);
  }

  async saveRepository(repo: RepositoryRecord): Promise<void> {
    await this.sql.query(
      `INSERT INTO sandbox_repositories (id, owner, name, data) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data`,
      [repo.id, repo.owner, repo.name, JSON.stringify(repo)],
    );
  }

  async ref(repositoryId: number, ref: string): Promise<string | null> {
    const { rows } = await this.sql.query<{ sha: string }>(
      'SELECT sha FROM sandbox_refs WHERE repository_id = $1 AND ref = $2',
      [repositoryId, ref],
    );
    return rows[0]?.sha ?? null;
  }

  async refs(repositoryId: number, prefix: string): Promise<Array<{ ref: string; sha: string }>> {
    const { rows } = await this.sql.query<{ ref: string; sha: string }>(
      'SELECT ref, sha FROM sandbox_refs WHERE repository_id = $1 AND starts_with(ref, $2) ORDER BY ref',
      [repositoryId, prefix],
    );
    return rows;
  }

  async setRef(repositoryId: number, ref: string, sha: string): Promise<void> {
    await this.sql.query(
      `INSERT INTO sandbox_refs (repository_id, ref, sha) VALUES ($1, $2, $3)
       ON CONFLICT (repository_id, ref) DO UPDATE SET sha = EXCLUDED.sha`,
      [repositoryId, ref, sha],
    );
  }

  async deleteRef(repositoryId: number, ref: string): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      'DELETE FROM sandbox_refs WHERE repository_id = $1 AND ref = $2',
      [repositoryId, ref],
    );
    return rowCount > 0;
  }

  // --- records (pulls, comments, reviews, check runs, statuses) ----------------------------------

  async record<T>(kind: RecordKind, id: number): Promise<T | null> {
    const { rows } = await this.sql.query<{ data: T }>(
      'SELECT data FROM sandbox_records WHERE kind = $1 AND id = $2',
      [kind, id],
    );
    return rows[0]?.data ?? null;
  }

  async recordWithRepository<T>(
    kind: RecordKind,
    id: number,
  ): Promise<{ repositoryId: number; data: T } | null> {
    const { rows } = await this.sql.query<{ repository_id: string; data: T }>(
      'SELECT repository_id, data FROM sandbox_records WHERE kind = $1 AND id = $2',
      [kind, id],
    );
    return rows[0] ? { repositoryId: Number(rows[0].repository_id), data: rows[0].data } : null;
  }

  async records<T>(repositoryId: number, kind: RecordKind, parent?: string): Promise<T[]> {
    const { rows } =
      parent === undefined
        ? await this.sql.query<{ data: T }>(
            'SELECT data FROM sandbox_records WHERE repository_id = $1 AND kind = $2 ORDER BY id',
            [repositoryId, kind],
          )
        : await this.sql.query<{ data: T }>(
            'SELECT data FROM sandbox_records WHERE repository_id = $1 AND kind = $2 AND parent = $3 ORDER BY id',
            [repositoryId, kind, parent],
          );
    return rows.map((row) => row.data);
  }

  async countRecords(repositoryId: number, kind: RecordKind, parent: string): Promise<number> {
    const { rows } = await this.sql.query<{ count: string | number }>(
      'SELECT count(*) AS count FROM sandbox_records WHERE repository_id = $1 AND kind = $2 AND parent = $3',
      [repositoryId, kind, parent],
    );
    return Number(rows[0]?.count ?? 0);
  }

  async saveRecord(
    kind: RecordKind,
    id: number,
    repositoryId: number,
    parent: string,
    data: object,
  ): Promise<void> {
    await this.sql.query(
      `INSERT INTO sandbox_records (kind, id, repository_id, parent, data) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (kind, id) DO UPDATE SET data = EXCLUDED.data, parent = EXCLUDED.parent`,
      [kind, id, repositoryId, parent, JSON.stringify(data)],
    );
  }

  // --- teams ------------------------------------------------------------------------------------

  async team(org: string, slug: string): Promise<TeamRecord | null> {
    const { rows } = await this.sql.query<{ data: TeamRecord }>(
      'SELECT data FROM sandbox_teams WHERE lower(org) = lower($1) AND lower(slug) = lower($2)',
      [org, slug],
    );
    return rows[0]?.data ?? null;
  }

  async teams(org: string): Promise<TeamRecord[]> {
    const { rows } = await this.sql.query<{ data: TeamRecord }>(
      'SELECT data FROM sandbox_teams WHERE lower(org) = lower($1) ORDER BY slug',
      [org],
    );
    return rows.map((row) => row.data);
  }

  async saveTeam(team: TeamRecord): Promise<void> {
    await this.sql.query(
      `INSERT INTO sandbox_teams (org, slug, data) VALUES ($1, $2, $3)
       ON CONFLICT (org, slug) DO UPDATE SET data = EXCLUDED.data`,
      [team.org, team.slug, JSON.stringify(team)],
    );
  }

  // --- installation tokens -------------------------------------------------------------------------

  async saveToken(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.sql.query('INSERT INTO sandbox_tokens (token_hash, expires_at) VALUES ($1, $2)', [
      tokenHash,
      expiresAt,
    ]);
  }

  async tokenValid(tokenHash: string, now: Date): Promise<boolean> {
    const { rows } = await this.sql.query(
      'SELECT 1 FROM sandbox_tokens WHERE token_hash = $1 AND expires_at > $2',
      [tokenHash, now],
    );
    return rows.length > 0;
  }

  // --- webhook deliveries and CI runs ----------------------------------------------------------------

  async enqueueDelivery(id: number, guid: string, event: string, payload: object, now: Date): Promise<void> {
    await this.sql.query(
      'INSERT INTO sandbox_deliveries (id, guid, event, payload, next_attempt_at) VALUES ($1, $2, $3, $4, $5)',
      [id, guid, event, JSON.stringify(payload), now],
    );
  }

  async scheduleCiRun(
    checkRunId: number,
    repositoryId: number,
    dueAt: Date,
    conclusion: string,
  ): Promise<void> {
    await this.sql.query(
      `INSERT INTO sandbox_ci_runs (check_run_id, repository_id, due_at, conclusion) VALUES ($1, $2, $3, $4)
       ON CONFLICT (check_run_id) DO NOTHING`,
      [checkRunId, repositoryId, dueAt, conclusion],
    );
  }

  async finishCiRun(checkRunId: number): Promise<void> {
    await this.sql.query('DELETE FROM sandbox_ci_runs WHERE check_run_id = $1', [checkRunId]);
  }
}
