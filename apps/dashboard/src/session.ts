import { signal } from '@preact/signals';
import { api, ApiError, SIGN_IN_PATH } from './api';
import { navigate } from './router';

export interface Session {
  kind: string;
  name: string;
  accounts: string[];
}

/** The signed-in session; undefined until asked, null when there is none. */
export const session = signal<Session | null | undefined>(undefined);

export async function loadSession(): Promise<void> {
  try {
    session.value = await api<Session>('GET', '/ui/session');
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
    session.value = null;
  }
}

export async function signIn(credential: string): Promise<void> {
  session.value = await api<Session>('POST', '/ui/session', { credential });
}

export async function signOut(): Promise<void> {
  await api('DELETE', '/ui/session');
  session.value = null;
  navigate(SIGN_IN_PATH);
}
