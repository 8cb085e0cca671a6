import type { FastifyReply } from 'fastify';
import type { SandboxRequest } from './sandbox-auth.guard';
import { apiBaseOf } from './sandbox-route';

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;

const positive = (raw: string | undefined, fallback: number): number => {
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/**
 * One page of a listing as GitHub serves it: `per_page` (30 by default, at most 100) and `page`
 * (from 1), with a `Link` header to the first, previous, next and last pages, so clients that
 * follow it (Octokit's `paginate`) read every item and clients that do not see only the first 30.
 */
export function sandboxPage<T>(
  items: readonly T[],
  request: SandboxRequest,
  reply: FastifyReply,
  query: Record<string, string | undefined>,
): T[] {
  const perPage = Math.min(positive(query.per_page, DEFAULT_PER_PAGE), MAX_PER_PAGE);
  const page = positive(query.page, 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  // The path as asked (it holds the sandbox prefix), on the origin the caller used.
  const url = new URL(request.url, apiBaseOf(request));
  const at = (number: number) => {
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(number));
    return url.toString();
  };
  const links = [
    ...(page > 1 ? [`<${at(page - 1)}>; rel="prev"`] : []),
    ...(page < last ? [`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`] : []),
    ...(page > 1 ? [`<${at(1)}>; rel="first"`] : []),
  ];
  if (links.length > 0) reply.header('link', links.join(', '));
  return items.slice((page - 1) * perPage, page * perPage);
}
