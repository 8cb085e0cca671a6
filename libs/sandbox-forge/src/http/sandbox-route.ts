import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@switchyard/http';
import { GitHubApiError } from '../forge/github-api-error';
import type { ForgeTransaction } from '../forge/forge-transaction';
import { SANDBOX_PATH, type SandboxForge } from '../forge/sandbox-forge';
import { GitHubErrorFilter } from './github-error.filter';
import { SandboxAuthGuard, type SandboxRequest } from './sandbox-auth.guard';
import { SandboxRequestTextGuard } from './sandbox-request-text.guard';

/**
 * A sandbox controller: under `/sandbox/github`, outside the service's own auth and error shapes
 * (GitHub's token and error conventions instead), and out of the service's OpenAPI document. Text
 * no store can hold is refused at its door (SandboxRequestTextGuard), after the credentials.
 */
export const SandboxController = (): ClassDecorator =>
  applyDecorators(
    Controller(SANDBOX_PATH.slice(1)),
    Public(),
    UseGuards(SandboxAuthGuard, SandboxRequestTextGuard),
    UseFilters(GitHubErrorFilter),
    ApiExcludeController(),
  );

/** The API base the caller used, so every URL in an answer leads back to where it came from. */
export const apiBaseOf = (request: SandboxRequest): string =>
  `${request.protocol}://${request.headers.host ?? '127.0.0.1'}${SANDBOX_PATH}`;

/** Runs an operation for a request: GETs as reads, which neither wait for writes nor hold them up. */
export const runFor = <T>(
  forge: SandboxForge,
  request: SandboxRequest,
  operation: (tx: ForgeTransaction) => Promise<T>,
): Promise<T> =>
  forge.run(request.sandboxUser!, apiBaseOf(request), operation, { readOnly: request.method === 'GET' });

export const numberParam = (raw: string): number => {
  if (!/^\d{1,9}$/.test(raw)) throw GitHubApiError.notFound();
  return Number(raw);
};

export type Body = Record<string, unknown>;

/** A JSON object body (GitHub answers 400 "Problems parsing JSON" to anything else). */
export const objectBody = (body: unknown): Body => {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new GitHubApiError(400, 'Problems parsing JSON');
  return body as Body;
};
