import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@switchyard/http';
import { GitHubApiError } from '../forge/github-api-error';
import { SANDBOX_PATH } from '../forge/sandbox-forge';
import { GitHubErrorFilter } from './github-error.filter';
import { SandboxAuthGuard, type SandboxRequest } from './sandbox-auth.guard';

/**
 * A sandbox controller: under `/sandbox/github`, outside the service's own auth and error shapes
 * (GitHub's token and error conventions instead), and out of the service's OpenAPI document.
 */
export const SandboxController = (): ClassDecorator =>
  applyDecorators(
    Controller(SANDBOX_PATH.slice(1)),
    Public(),
    UseGuards(SandboxAuthGuard),
    UseFilters(GitHubErrorFilter),
    ApiExcludeController(),
  );

/** The API base the caller used, so every URL in an answer leads back to where it came from. */
export const apiBaseOf = (request: SandboxRequest): string =>
  `${request.protocol}://${request.headers.host ?? '127.0.0.1'}${SANDBOX_PATH}`;

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
