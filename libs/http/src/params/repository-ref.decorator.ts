import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { OWNER_PATTERN, parseRepositoryRef, REPOSITORY_PATTERN } from './repository-ref';

/** Documents the two path parameters on the handler that takes a RepositoryRef. */
const documentRepositoryParams = (target: object, key: string | symbol | undefined): void => {
  if (key === undefined) return;
  const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
  ApiParam({ name: 'owner', type: String, schema: { minLength: 1, maxLength: 40, pattern: OWNER_PATTERN } })(
    target,
    key,
    descriptor,
  );
  ApiParam({
    name: 'repository',
    type: String,
    schema: { minLength: 1, maxLength: 100, pattern: REPOSITORY_PATTERN },
  })(target, key, descriptor);
};

/**
 * `handler(@RepositoryRefParam() repo: RepositoryRef)` on routes with `:owner` and `:repository`.
 * Checked here rather than by the global pipe because it reads two params at once.
 */
export const RepositoryRefParam = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    parseRepositoryRef(
      (context.switchToHttp().getRequest<FastifyRequest>().params ?? {}) as Record<string, unknown>,
    ),
  [documentRepositoryParams],
);
