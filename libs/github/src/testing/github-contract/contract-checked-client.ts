import { GitHubRestContract } from './github-rest-contract';

export interface GitHubAnswer<T> {
  readonly status: number;
  readonly body: T;
  /** The answer's headers (`link` for the pages of a listing). */
  readonly headers: Headers;
}

/**
 * A bare GitHub REST client over fetch (nothing but GitHub's paths and shapes) that holds every
 * request body and every answer against GitHub's published description and keeps the drifts it
 * finds: a test ends with
 * `expect(client.violations).toEqual([])`.
 */
export class ContractCheckedClient {
  readonly violations: string[] = [];
  readonly calls: string[] = [];
  private readonly contract = GitHubRestContract.load();

  constructor(
    private readonly apiBase: string,
    private readonly token: string,
    private readonly scheme: 'token' | 'Bearer' = 'token',
  ) {}

  as(token: string, scheme: 'token' | 'Bearer' = 'token'): ContractCheckedClient {
    const other = new ContractCheckedClient(this.apiBase, token, scheme);
    // One list of drifts per test, whoever made the call.
    (other as { violations: string[] }).violations = this.violations;
    return other;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are asserted field by field
  async request<T = any>(method: string, path: string, body?: unknown): Promise<GitHubAnswer<T>> {
    // What the test sends must be GitHub's too, or the test would prove nothing about real clients.
    if (body !== undefined) {
      for (const violation of this.contract.checkRequest(method, path.split('?')[0], body)) {
        this.violations.push(`${method} ${path} (request): ${violation}`);
      }
    }
    const response = await fetch(`${this.apiBase}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `${this.scheme} ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    this.calls.push(`${method} ${path} → ${response.status}`);
    const pathOnly = path.split('?')[0];
    for (const violation of this.contract.checkResponse(method, pathOnly, response.status, parsed)) {
      this.violations.push(`${method} ${path} → ${response.status}: ${violation}`);
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
}
