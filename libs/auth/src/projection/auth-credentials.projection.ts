import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Projection } from '@switchyard/projection';
import type { ApplicationKeyEvent } from '../domain/application-key/application-key.events';
import { APPLICATION_KEY_EVENT_TYPES } from '../domain/application-key/application-key.events';
import type { ServiceTokenEvent } from '../domain/service-token/service-token.events';
import { SERVICE_TOKEN_EVENT_TYPES } from '../domain/service-token/service-token.events';

export const AUTH_CREDENTIALS_TABLE = 'auth_credentials';

type CredentialEvent = ApplicationKeyEvent | ServiceTokenEvent;

/**
 * Every application key and service token, keyed by the SHA-256 of its secret: authenticating a
 * request is one primary-key lookup. Revoked rows stay (revoked = true) so `keys list` shows them
 * and a revoked secret is refused for what it is.
 */
export class AuthCredentialsProjection implements Projection {
  readonly name = AUTH_CREDENTIALS_TABLE;
  readonly version = 1;
  readonly eventTypes = [...APPLICATION_KEY_EVENT_TYPES, ...SERVICE_TOKEN_EVENT_TYPES];

  async setup(tx: SqlQueryable): Promise<void> {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${AUTH_CREDENTIALS_TABLE} (
        secret_hash   text PRIMARY KEY,
        kind          text NOT NULL CHECK (kind IN ('application_key', 'service_token')),
        id            uuid NOT NULL UNIQUE,
        name          text NOT NULL,
        scope         text NULL CHECK (scope IN ('admin', 'ci')),
        account_id    bigint NOT NULL,
        account_login text NOT NULL,
        created_at    timestamptz NOT NULL,
        expires_at    timestamptz NULL,
        revoked       boolean NOT NULL DEFAULT false,
        revoked_at    timestamptz NULL
      );
    `);
  }

  async reset(tx: SqlQueryable): Promise<void> {
    await tx.query(`DELETE FROM ${AUTH_CREDENTIALS_TABLE}`);
  }

  async apply(tx: SqlQueryable, events: readonly RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as CredentialEvent;
      await this.applyOne(tx, event);
    }
  }

  private async applyOne(tx: SqlQueryable, event: CredentialEvent): Promise<void> {
    switch (event.type) {
      case 'application_key.created': {
        const { data } = event;
        await insert(tx, [
          data.secret_hash,
          'application_key',
          data.key_id,
          data.name,
          data.scope,
          data.account.id,
          data.account.login,
          data.created_at,
          null,
        ]);
        return;
      }
      case 'service_token.issued': {
        const { data } = event;
        await insert(tx, [
          data.secret_hash,
          'service_token',
          data.token_id,
          data.name,
          null,
          data.account.id,
          data.account.login,
          data.issued_at,
          data.expires_at,
        ]);
        return;
      }
      case 'application_key.revoked':
        await markRevoked(tx, event.data.key_id, event.data.revoked_at);
        return;
      case 'service_token.revoked':
        await markRevoked(tx, event.data.token_id, event.data.revoked_at);
        return;
    }
  }
}

/** ON CONFLICT DO NOTHING: replaying the same event leaves the row as it was. */
const insert = (tx: SqlQueryable, values: unknown[]) =>
  tx.query(
    `INSERT INTO ${AUTH_CREDENTIALS_TABLE}
       (secret_hash, kind, id, name, scope, account_id, account_login, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT DO NOTHING`,
    values,
  );

/** Keeps the first revocation time when replayed. */
const markRevoked = (tx: SqlQueryable, id: string, at: string) =>
  tx.query(
    `UPDATE ${AUTH_CREDENTIALS_TABLE} SET revoked = true, revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`,
    [id, at],
  );

export const authCredentialsProjection = new AuthCredentialsProjection();
