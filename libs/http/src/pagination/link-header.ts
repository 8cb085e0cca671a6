import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeUnsafeUrlCharacters, requestOrigin, splitRequestUrl } from './request-url';

/** Cursors for the pages around this one; a missing entry is a missing link. */
export interface PageLinks {
  next?: string | null;
  prev?: string | null;
  first?: string | null;
  last?: string | null;
}

const RELATIONS = ['next', 'prev', 'first', 'last'] as const;

/**
 * An RFC 5988 Link header of absolute URLs (the CLI ignores relative ones) that repeat the caller's
 * query verbatim, every repeated key in order, with `cursor` replaced in place or appended. The
 * CLI reads only `cursor` from the link and re-sends its own query, but other clients follow the
 * URL as it is. Returns undefined when there is no link: one page holds everything.
 */
export function buildLinkHeader(request: FastifyRequest, links: PageLinks): string | undefined {
  const present = RELATIONS.filter((rel) => typeof links[rel] === 'string');
  if (present.length === 0) return undefined;
  const { path, query } = splitRequestUrl(request);
  const base = `${requestOrigin(request)}${escapeUnsafeUrlCharacters(path)}`;
  const pairs = query === '' ? [] : query.split('&').filter((pair) => pair !== '');
  return present
    .map((rel) => `<${base}?${withCursor(pairs, links[rel] as string).join('&')}>; rel="${rel}"`)
    .join(', ');
}

/** Sets the Link header when there is one; answers nothing otherwise. */
export function setLinkHeader(reply: FastifyReply, request: FastifyRequest, links: PageLinks): void {
  const header = buildLinkHeader(request, links);
  if (header !== undefined) void reply.header('link', header);
}

function withCursor(pairs: readonly string[], cursor: string): string[] {
  const cursorPair = `cursor=${encodeURIComponent(cursor)}`;
  const result: string[] = [];
  let placed = false;
  for (const pair of pairs) {
    if (isCursorPair(pair)) {
      if (!placed) result.push(cursorPair);
      placed = true;
    } else {
      result.push(escapeUnsafeUrlCharacters(pair));
    }
  }
  if (!placed) result.push(cursorPair);
  return result;
}

const isCursorPair = (pair: string): boolean => {
  const name = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')) === 'cursor';
  } catch {
    return false;
  }
};
