import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { codePointLength, findUnstorableText } from '@switchyard/kernel';
import type { FastifyRequest } from 'fastify';
import { GitHubApiError } from '../forge/github-api-error';

/**
 * GitHub's longest text fields (pull-request and comment bodies) hold 65,536 characters; the
 * webhook door refuses longer text, so the forge must not send it. A file's base64 `content` is
 * bounded by the body limit instead.
 */
export const MAX_FORGE_TEXT = 65_536;

/**
 * The one rule for text at the sandbox forge's door, before any operation runs: every string of the
 * path, the query and the body (keys too) must be storable (no NUL, no lone surrogate), and every
 * body string but a file's content at most 65,536 characters; otherwise 422 naming the field, as
 * GitHub answers a field it cannot take. What the forge stores reaches its tables and, through its
 * webhooks, the event store.
 */
@Injectable()
export class SandboxRequestTextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    for (const [place, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const found = findUnstorableText(value);
      if (found) {
        const where = found.path === '' ? place : `${place} ${found.inKey ? 'key ' : ''}'${found.path}'`;
        throw GitHubApiError.unprocessable(`Invalid request.\n\nThe ${where} ${found.problem.message}.`);
      }
    }
    const long = longText(request.body);
    if (long)
      throw GitHubApiError.unprocessable(
        `Invalid request.\n\n'${long}' is too long (maximum is ${MAX_FORGE_TEXT} characters).`,
      );
    return true;
  }
}

function longText(body: unknown, path = ''): string | null {
  if (typeof body === 'string')
    return codePointLength(body, MAX_FORGE_TEXT) > MAX_FORGE_TEXT && path !== 'content'
      ? path || 'body'
      : null;
  if (typeof body !== 'object' || body === null) return null;
  for (const [key, value] of Object.entries(body)) {
    const found = longText(value, path === '' ? key : `${path}.${key}`);
    if (found) return found;
  }
  return null;
}
