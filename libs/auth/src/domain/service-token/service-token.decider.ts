import { checkStorableInstant, conflict, notFound, unprocessable, type Decider } from '@switchyard/kernel';
import { assertValidCredential } from '../credential-rules';
import type { IssueServiceToken, RevokeServiceToken, ServiceTokenCommand } from './service-token.commands';
import type { ServiceTokenEvent } from './service-token.events';

export type ServiceTokenState = { status: 'absent' } | { status: 'active' | 'revoked'; tokenId: string };

const issue = (command: IssueServiceToken, state: ServiceTokenState): ServiceTokenEvent[] => {
  if (state.status !== 'absent') throw conflict(`Service token ${command.tokenId} already exists`);
  assertValidCredential(command);
  if (command.expiresAt && command.expiresAt.getTime() <= command.at.getTime()) {
    throw unprocessable('A service token must expire after it is issued');
  }
  if (command.expiresAt) checkStorableInstant('expires_at', command.expiresAt);
  return [
    {
      type: 'service_token.issued',
      data: {
        token_id: command.tokenId,
        name: command.name,
        account: { id: command.account.id, login: command.account.login },
        secret_hash: command.secretHash,
        issued_at: command.at.toISOString(),
        expires_at: command.expiresAt ? command.expiresAt.toISOString() : null,
      },
    },
  ];
};

/** Idempotent, like application keys: revoking twice succeeds and records nothing the second time. */
const revoke = (command: RevokeServiceToken, state: ServiceTokenState): ServiceTokenEvent[] => {
  if (state.status === 'absent') throw notFound(`Service token ${command.tokenId} not found`);
  if (state.status === 'revoked') return [];
  return [
    {
      type: 'service_token.revoked',
      data: { token_id: command.tokenId, revoked_at: command.at.toISOString() },
    },
  ];
};

export const serviceTokenDecider: Decider<ServiceTokenState, ServiceTokenCommand, ServiceTokenEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueServiceToken':
        return issue(command, state);
      case 'RevokeServiceToken':
        return revoke(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'service_token.issued':
        return { status: 'active', tokenId: event.data.token_id };
      case 'service_token.revoked':
        return state.status === 'absent' ? state : { ...state, status: 'revoked' };
      default:
        return state;
    }
  },
};
