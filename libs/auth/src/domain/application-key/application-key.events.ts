import type { AccountRef } from '../account';

export type ApplicationKeyScope = 'admin' | 'ci';

export interface ApplicationKeyCreated {
  type: 'application_key.created';
  data: {
    key_id: string;
    name: string;
    scope: ApplicationKeyScope;
    account: AccountRef;
    /** SHA-256 of the secret, hex; the secret itself is never stored. */
    secret_hash: string;
    created_at: string;
  };
}

export interface ApplicationKeyRevoked {
  type: 'application_key.revoked';
  data: { key_id: string; revoked_at: string };
}

export type ApplicationKeyEvent = ApplicationKeyCreated | ApplicationKeyRevoked;

export const APPLICATION_KEY_EVENT_TYPES = ['application_key.created', 'application_key.revoked'] as const;
