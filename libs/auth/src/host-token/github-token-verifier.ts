import { Octokit } from '@octokit/rest';
import { hashSecret } from '../secrets/secrets';
import type { HostIdentity, TokenVerifier } from './token-verifier';

export interface GitHubTokenVerifierOptions {
  /** REST base URL: https://api.github.com, a GHES `/api/v3`, or the sandbox forge. */
  apiUrl: string;
  /** How long an answer (yes or no) is reused; a revoked token stops working within this time. */
  ttlMs?: number;
  /** At most this many tokens are remembered; the oldest answer goes first. */
  maxEntries?: number;
  now?: () => number;
}

interface CachedAnswer {
  identity: HostIdentity | null;
  expiresAt: number;
}

/**
 * Verifies GitHub user tokens by asking GitHub: `GET /user` says whose token it is, and
 * `GET /user/installations` which accounts with the App installed it may act for (plus the user's
 * own). Answers are cached briefly by the token's digest, so a burst of requests costs GitHub one
 * lookup and the cache never holds a usable token.
 */
export class GitHubTokenVerifier implements TokenVerifier {
  private readonly cache = new Map<string, CachedAnswer>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: GitHubTokenVerifierOptions) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  async verify(token: string): Promise<HostIdentity | null> {
    const key = hashSecret(token);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) return copy(cached.identity);
    const identity = await this.ask(token);
    this.cache.delete(key);
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { identity, expiresAt: this.now() + this.ttlMs });
    return copy(identity);
  }

  private async ask(token: string): Promise<HostIdentity | null> {
    const github = new Octokit({
      auth: token,
      baseUrl: this.options.apiUrl,
      userAgent: 'switchyard',
      log: quiet,
    });
    let user: { id: number; login: string };
    try {
      user = (await github.rest.users.getAuthenticated()).data;
    } catch (error) {
      // A token GitHub does not know (or no longer knows) is no identity; anything else is an outage.
      if ([401, 403, 404].includes((error as { status?: number }).status ?? 0)) return null;
      throw error;
    }
    const accounts = new Set([user.login]);
    try {
      const installations = await github.paginate(github.rest.apps.listInstallationsForAuthenticatedUser, {
        per_page: 100,
      });
      for (const installation of installations) {
        const account = installation.account as { login?: string } | null;
        if (account?.login) accounts.add(account.login);
      }
    } catch (error) {
      // Tokens not issued through a GitHub App (classic or fine-grained PATs) may not list
      // installations: they act for the user's own account only.
      if (![401, 403, 404].includes((error as { status?: number }).status ?? 0)) throw error;
    }
    return { user: { id: user.id, login: user.login }, accounts: [...accounts] };
  }
}

const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

const copy = (identity: HostIdentity | null): HostIdentity | null =>
  identity ? { user: { ...identity.user }, accounts: [...identity.accounts] } : null;

/** Tries each verifier in turn: e.g. the configured static table, then GitHub. */
export class FirstMatchTokenVerifier implements TokenVerifier {
  constructor(private readonly verifiers: readonly TokenVerifier[]) {}

  async verify(token: string): Promise<HostIdentity | null> {
    for (const verifier of this.verifiers) {
      const identity = await verifier.verify(token);
      if (identity) return identity;
    }
    return null;
  }
}
