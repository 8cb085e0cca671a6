import { SCHEMA_LOCK_KEY } from '@switchyard/event-store/sql';
import type { SqlExecutor } from '@switchyard/sql';

/**
 * The sandbox forge's own tables, beside the read models in the service's SQL store (PGlite or
 * PostgreSQL). Its state is the forge's, not a projection of events: GitHub is the source of truth
 * in GitHub mode, and the sandbox stands in for GitHub. Created under the schema lock, like every
 * read model, so concurrent processes do not collide in the catalog.
 */
export async function ensureSandboxSchema(executor: SqlExecutor): Promise<void> {
  await executor.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await tx.exec(`
      CREATE SEQUENCE IF NOT EXISTS sandbox_ids START 1000;
      CREATE TABLE IF NOT EXISTS sandbox_settings (key text PRIMARY KEY, value text NOT NULL);
      CREATE TABLE IF NOT EXISTS sandbox_objects (sha text PRIMARY KEY, kind text NOT NULL, body jsonb NOT NULL);
      CREATE TABLE IF NOT EXISTS sandbox_repositories (
        id bigint PRIMARY KEY, owner text NOT NULL, name text NOT NULL, data jsonb NOT NULL,
        UNIQUE (owner, name)
      );
      CREATE TABLE IF NOT EXISTS sandbox_refs (
        repository_id bigint NOT NULL, ref text NOT NULL, sha text NOT NULL, PRIMARY KEY (repository_id, ref)
      );
      CREATE TABLE IF NOT EXISTS sandbox_records (
        kind text NOT NULL, id bigint NOT NULL, repository_id bigint NOT NULL, parent text NOT NULL,
        data jsonb NOT NULL, PRIMARY KEY (kind, id)
      );
      CREATE INDEX IF NOT EXISTS sandbox_records_by_parent ON sandbox_records (repository_id, kind, parent);
      CREATE TABLE IF NOT EXISTS sandbox_teams (
        org text NOT NULL, slug text NOT NULL, data jsonb NOT NULL, PRIMARY KEY (org, slug)
      );
      CREATE TABLE IF NOT EXISTS sandbox_tokens (token_hash text PRIMARY KEY, expires_at timestamptz NOT NULL);
      CREATE TABLE IF NOT EXISTS sandbox_deliveries (
        id bigint PRIMARY KEY, guid text NOT NULL, event text NOT NULL, payload jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz NOT NULL,
        delivered_at timestamptz, status integer, last_error text
      );
      CREATE INDEX IF NOT EXISTS sandbox_deliveries_pending ON sandbox_deliveries (next_attempt_at) WHERE delivered_at IS NULL;
      CREATE TABLE IF NOT EXISTS sandbox_ci_runs (
        check_run_id bigint PRIMARY KEY, repository_id bigint NOT NULL, due_at timestamptz NOT NULL,
        conclusion text NOT NULL
      );
    `);
  });
}
