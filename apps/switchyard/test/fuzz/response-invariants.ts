import type { HttpResponse } from '../harness';

/**
 * What must hold for any request whatever it carries: never a 5xx; every 4xx a JSON body with a
 * non-empty `detail`; and a refused request leaves the event store as it was.
 */
export function responseProblems(
  response: HttpResponse,
  head: { before: string | null; after: string | null },
): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`answered ${response.status}`);
  if (response.status >= 400) {
    const body = response.body as { detail?: unknown } | string;
    const detail = typeof body === 'object' && body !== null ? body.detail : undefined;
    const described =
      (typeof detail === 'string' && detail.length > 0) || (Array.isArray(detail) && detail.length > 0);
    if (!described)
      problems.push(`answered ${response.status} without a detail: ${response.text.slice(0, 200)}`);
    if (head.before !== head.after) {
      problems.push(`answered ${response.status} but appended events (head ${head.before} -> ${head.after})`);
    }
  }
  return problems;
}
