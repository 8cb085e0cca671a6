import type { AccountRef } from '../account';

export interface ServiceTokenIssued {
  type: 'service_token.issued';
  data: {
    token_id: string;
    name: string;
    account: AccountRef;
    /** SHA-256 of the secret, hex; the secret itself is never stored. */
    secret_hash: string;
    issued_at: string;
    expires_at: string | null;
  };
}

export interface ServiceTokenRevoked {
  type: 'service_token.revoked';
  data: { token_id: string; revoked_at: string };
}

export type ServiceTokenEvent = ServiceTokenIssued | ServiceTokenRevoked;

export const SERVICE_TOKEN_EVENT_TYPES = ['service_token.issued', 'service_token.revoked'] as const;
