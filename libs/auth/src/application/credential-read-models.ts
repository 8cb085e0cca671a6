import { AUTH_CREDENTIALS_TABLE } from '../projection/auth-credentials.projection';

/** What credential reads (the guard, key and token lists) serve from: the writes here wait for it alone. */
export const CREDENTIAL_READ_MODELS: readonly string[] = [AUTH_CREDENTIALS_TABLE];
