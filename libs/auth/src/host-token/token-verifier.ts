/** Who a code-host token belongs to, and which accounts (logins) it may act for. */
export interface HostIdentity {
  user: { id: number | string; login: string };
  accounts: string[];
}

/**
 * Verifies tokens issued by the code host (GitHub `ghp_`, `gho_`, `github_pat_`…). null means
 * "not a token we accept"; the adapter decides how (a static table, the GitHub API with a cache).
 */
export interface TokenVerifier {
  verify(token: string): Promise<HostIdentity | null>;
}

export const TOKEN_VERIFIER = Symbol('TOKEN_VERIFIER');
