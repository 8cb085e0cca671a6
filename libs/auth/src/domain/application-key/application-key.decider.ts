import { conflict, notFound, unprocessable, type Decider } from '@switchyard/kernel';
import { assertValidCredential } from '../credential-rules';
import type {
  ApplicationKeyCommand,
  CreateApplicationKey,
  RevokeApplicationKey,
} from './application-key.commands';
import type { ApplicationKeyEvent, ApplicationKeyScope } from './application-key.events';

export type ApplicationKeyState =
  | { status: 'absent' }
  | { status: 'active' | 'revoked'; keyId: string; scope: ApplicationKeyScope; secretHash: string };

const SCOPES: readonly string[] = ['admin', 'ci'];

const create = (command: CreateApplicationKey, state: ApplicationKeyState): ApplicationKeyEvent[] => {
  if (state.status !== 'absent') {
    // The same key created again (a restart re-applying SWITCHYARD_ADMIN_KEY) changes nothing;
    // anything else under an existing id is a genuine clash.
    if (state.secretHash === command.secretHash && state.scope === command.scope) return [];
    throw conflict(`Application key ${command.keyId} already exists`);
  }
  if (!SCOPES.includes(command.scope))
    throw unprocessable(`Unknown application key scope '${command.scope}'`);
  assertValidCredential(command);
  return [
    {
      type: 'application_key.created',
      data: {
        key_id: command.keyId,
        name: command.name,
        scope: command.scope,
        account: { id: command.account.id, login: command.account.login },
        secret_hash: command.secretHash,
        created_at: command.at.toISOString(),
      },
    },
  ];
};

/**
 * Revoking is idempotent: revoking an already revoked key records nothing and succeeds, so a retried
 * `keys revoke` (or two admins racing) never fails; the service reports whether anything changed.
 */
const revoke = (command: RevokeApplicationKey, state: ApplicationKeyState): ApplicationKeyEvent[] => {
  if (state.status === 'absent') throw notFound(`Application key ${command.keyId} not found`);
  if (state.status === 'revoked') return [];
  return [
    {
      type: 'application_key.revoked',
      data: { key_id: command.keyId, revoked_at: command.at.toISOString() },
    },
  ];
};

export const applicationKeyDecider: Decider<ApplicationKeyState, ApplicationKeyCommand, ApplicationKeyEvent> =
  {
    initialState: () => ({ status: 'absent' }),

    decide(command, state) {
      switch (command.type) {
        case 'CreateApplicationKey':
          return create(command, state);
        case 'RevokeApplicationKey':
          return revoke(command, state);
      }
    },

    evolve(state, event) {
      switch (event.type) {
        case 'application_key.created':
          return {
            status: 'active',
            keyId: event.data.key_id,
            scope: event.data.scope,
            secretHash: event.data.secret_hash,
          };
        case 'application_key.revoked':
          return state.status === 'absent' ? state : { ...state, status: 'revoked' };
        default:
          return state;
      }
    },
  };
