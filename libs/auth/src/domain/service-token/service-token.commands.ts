import type { AccountRef } from '../account';

export interface IssueServiceToken {
  type: 'IssueServiceToken';
  tokenId: string;
  name: string;
  account: AccountRef;
  secretHash: string;
  at: Date;
  /** null: the token lives until revoked. */
  expiresAt: Date | null;
}

export interface RevokeServiceToken {
  type: 'RevokeServiceToken';
  tokenId: string;
  at: Date;
}

export type ServiceTokenCommand = IssueServiceToken | RevokeServiceToken;
