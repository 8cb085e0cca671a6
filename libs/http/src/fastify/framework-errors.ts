import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { REQUEST_ID_HEADER } from '../logging/request-id';

/**
 * The refusals Fastify and Node make before any route or Nest filter runs, in our `{"detail": …}`
 * shape: a URL that does not percent-decode, a path parameter beyond the router's length limit,
 * and what the HTTP parser itself refuses (headers too large, a malformed request line).
 */
const FRAMEWORK_DETAILS: Readonly<Record<string, { status: number; detail: string }>> = {
  FST_ERR_BAD_URL: { status: 400, detail: 'The URL is not validly percent-encoded UTF-8' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: 'A path segment of the URL is too long' },
};

/**
 * Fastify's `frameworkErrors` option. It answers through the raw response, as Fastify's own default
 * does here (no route, so no hooks to run); taking only `raw` also keeps Nest's copy of the Fastify
 * types out of the signature.
 */
export function answerFrameworkError(
  error: Error & { code?: string },
  request: { id: string },
  reply: { raw: ServerResponse },
): void {
  const known = (error.code && FRAMEWORK_DETAILS[error.code]) || undefined;
  const status = known?.status ?? 400;
  const body = JSON.stringify({ detail: known?.detail ?? STATUS_CODES[status] });
  reply.raw.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    [REQUEST_ID_HEADER]: request.id,
  });
  reply.raw.end(body);
}

const CLIENT_ERRORS: Readonly<Record<string, { status: number; detail: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request line and headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request took too long to arrive' },
};

/**
 * Fastify's `clientErrorHandler`: the request never became a request (Node's parser refused it), so
 * the answer is written to the socket directly, which is then closed, as Node itself does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = (error.code && CLIENT_ERRORS[error.code]) || {
    status: 400,
    detail: 'The request is not valid HTTP',
  };
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
