/** A failed call, with what the service answered: the demo stops on the first one, never silently. */
export class HttpCallError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly answer: string,
  ) {
    super(`${method} ${path} answered ${status}: ${answer.slice(0, 500)}`);
  }
}

/**
 * The demo's only way to the service: HTTP with the admin key, JSON in and out. `forge` is the
 * sandbox forge (GitHub's REST paths under /sandbox/github), `v1` the public API clients use.
 */
export class SwitchyardHttp {
  constructor(
    readonly baseUrl: string,
    private readonly adminKey: string,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub's and the v1 API's JSON, read field by field
  async call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    accept: number[] = [200, 201],
  ): Promise<T> {
    const response = await this.send(method, path, body);
    const text = await response.text();
    if (!accept.includes(response.status)) throw new HttpCallError(method, path, response.status, text);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** One page of a paginated list, and the path of the next (from the RFC 5988 Link header). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as call()
  async page<T = any>(path: string): Promise<{ body: T; next: string | null }> {
    const response = await this.send('GET', path);
    const text = await response.text();
    if (response.status !== 200) throw new HttpCallError('GET', path, response.status, text);
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    // The link is absolute, in the service's own idea of its address: keep only path and query.
    return { body: JSON.parse(text) as T, next: next ? new URL(next).pathname + new URL(next).search : null };
  }

  /** The status alone, for reads where 404 is an answer (a file not there yet). */
  async status(method: string, path: string): Promise<number> {
    const response = await this.send(method, path);
    await response.arrayBuffer();
    return response.status;
  }

  forgePath(repository: string, path: string): string {
    return `/sandbox/github/repos/${repository}${path}`;
  }

  v1Path(repository: string, path: string): string {
    return `/v1/repos/${repository}${path}`;
  }

  private send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.adminKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}
