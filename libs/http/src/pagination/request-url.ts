import type { FastifyRequest } from 'fastify';

/**
 * Characters allowed in a URL as sent (RFC 3986 unreserved, reserved and `%`); anything else found
 * in a raw request line is escaped before it goes inside a Link header's `<…>`.
 */
const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/g;

export const escapeUnsafeUrlCharacters = (text: string): string =>
  text.replace(UNSAFE, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );

/**
 * `scheme://host` of the request. Fastify derives both from the socket and the Host header, and
 * from X-Forwarded-Proto / X-Forwarded-Host only when the server was built with `trustProxy`
 * (fastifyServerOptions sets it from the SWITCHYARD_TRUST_PROXY flag), so a client cannot
 * steer our links to another host unless we sit behind a proxy that sets those headers.
 */
export function requestOrigin(request: FastifyRequest): string {
  const host = request.host || 'localhost';
  return `${request.protocol}://${escapeUnsafeUrlCharacters(host)}`;
}

/** Path and raw query exactly as the caller sent them. */
export function splitRequestUrl(request: FastifyRequest): { path: string; query: string } {
  const url = request.url;
  const mark = url.indexOf('?');
  return mark < 0 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}
