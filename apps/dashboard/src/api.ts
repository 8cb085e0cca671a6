/** A refusal from the API, with its `detail` as the API words it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** The answer's body as sent, for pages that read more than `detail` (a 422's issues). */
    readonly body: unknown = undefined,
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
  return (await apiPage<T>(method, path, body)).body;
}

/** An answer with the URL of its next page, from the API's RFC 5988 Link header. */
export async function apiPage<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ body: T; next: string | null }> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return { body: undefined as T, next: null };
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, detailOf(parsed, response.statusText), parsed);
  return { body: parsed as T, next: nextLink(response.headers.get('link')) };
}

/** The `rel="next"` URL of a Link header, as a same-origin path. */
export function nextLink(header: string | null): string | null {
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) {
      const url = new URL(match[1], 'http://origin.invalid');
      return url.pathname + url.search;
    }
  }
  return null;
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
