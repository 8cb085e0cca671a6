import type { SqlQueryable } from '@switchyard/sql';
import type { ApplicationKeyScope } from '../domain/application-key/application-key.events';
import { AUTH_CREDENTIALS_TABLE } from './auth-credentials.projection';
import type { CredentialRecord, StoredCredentialKind } from './credential-record';

interface CredentialRow {
  kind: StoredCredentialKind;
  id: string;
  name: string;
  scope: ApplicationKeyScope | null;
  account_id: string;
  account_login: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked: boolean;
  revoked_at: Date | string | null;
}

// account_id as text: node-postgres and PGlite disagree on how int8 arrives.
const COLUMNS = `kind, id::text AS id, name, scope, account_id::text AS account_id, account_login,
  created_at, expires_at, revoked, revoked_at`;

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

const toRecord = (row: CredentialRow): CredentialRecord => ({
  kind: row.kind,
  id: row.id,
  name: row.name,
  scope: row.scope,
  account: { id: Number(row.account_id), login: row.account_login },
  createdAt: toDate(row.created_at),
  expiresAt: row.expires_at === null ? null : toDate(row.expires_at),
  revoked: row.revoked,
  revokedAt: row.revoked_at === null ? null : toDate(row.revoked_at),
});

/** Queries over `auth_credentials`. */
export class CredentialReadModel {
  constructor(private readonly sql: SqlQueryable) {}

  /** The per-request lookup: one primary-key probe. */
  async findBySecretHash(secretHash: string): Promise<CredentialRecord | null> {
    const { rows } = await this.sql.query<CredentialRow>(
      `SELECT ${COLUMNS} FROM ${AUTH_CREDENTIALS_TABLE} WHERE secret_hash = $1`,
      [secretHash],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findById(id: string): Promise<CredentialRecord | null> {
    const { rows } = await this.sql.query<CredentialRow>(
      `SELECT ${COLUMNS} FROM ${AUTH_CREDENTIALS_TABLE} WHERE id = $1`,
      [id],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(kind: StoredCredentialKind): Promise<CredentialRecord[]> {
    const { rows } = await this.sql.query<CredentialRow>(
      `SELECT ${COLUMNS} FROM ${AUTH_CREDENTIALS_TABLE} WHERE kind = $1 ORDER BY created_at, id`,
      [kind],
    );
    return rows.map(toRecord);
  }

  async hasAnyApplicationKey(): Promise<boolean> {
    const { rows } = await this.sql.query(
      `SELECT 1 FROM ${AUTH_CREDENTIALS_TABLE} WHERE kind = 'application_key' LIMIT 1`,
    );
    return rows.length > 0;
  }
}
