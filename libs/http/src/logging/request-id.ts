import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids a proxy or client may hand us: short, printable, nothing that could forge a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Keeps an incoming x-request-id when it looks like an id, so one request can be followed across
 * the proxy and us; otherwise a fresh uuid.
 */
export function genReqId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  const candidate = Array.isArray(incoming) ? incoming[0] : incoming;
  return candidate !== undefined && SANE_REQUEST_ID.test(candidate) ? candidate : randomUUID();
}
