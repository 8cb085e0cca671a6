/** A refusal from the API, with its `detail` as the API words it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** Where the page goes when its session no longer signs in. */
export const SIGN_IN_PATH = '/ui/sign-in';

/**
 * The page's one way to the service: same-origin requests that carry the session cookie (never a
 * credential of its own), JSON both ways, and the API's `{"detail": …}` turned into an ApiError.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, detailOf(parsed, response.statusText));
  return parsed as T;
}

function detailOf(body: unknown, fallback: string): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return detail
      .map((issue: { msg?: string; loc?: unknown[] }) => `${(issue.loc ?? []).join('.')}: ${issue.msg}`)
      .join('; ');
  return fallback;
}

/** `/v1/repos/{owner}/{repository}` for a repository named `owner/name`. */
export const repoPath = (repository: string): string =>
  `/v1/repos/${repository.split('/').map(encodeURIComponent).join('/')}`;
