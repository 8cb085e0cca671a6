import type { AccountRef } from '../account';
import type { ApplicationKeyScope } from './application-key.events';

export interface CreateApplicationKey {
  type: 'CreateApplicationKey';
  keyId: string;
  name: string;
  scope: ApplicationKeyScope;
  account: AccountRef;
  secretHash: string;
  at: Date;
}

export interface RevokeApplicationKey {
  type: 'RevokeApplicationKey';
  keyId: string;
  at: Date;
}

export type ApplicationKeyCommand = CreateApplicationKey | RevokeApplicationKey;
