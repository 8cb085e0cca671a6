import type { Actor } from '@switchyard/kernel';
import type { AccountRef } from './domain/account';
import type { ApplicationKeyScope } from './domain/application-key/application-key.events';

export type CredentialKind = 'admin_key' | 'ci_key' | 'service_token' | 'host_token';

/** The authenticated caller, put on the request by the auth guard. */
export interface Principal {
  kind: CredentialKind;
  /** Recorded on the events the request causes. */
  actor: Actor;
  /** Account logins this caller may act for (compare case-insensitively). */
  accounts: string[];
  /** Application keys only: what GET /v1/application answers. */
  application?: { id: string; name: string; scope: ApplicationKeyScope; account: AccountRef };
}
