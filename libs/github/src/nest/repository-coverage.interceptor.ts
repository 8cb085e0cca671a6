import {
  Inject,
  Injectable,
  NotFoundException,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { parseRepositoryRef, type RepositoryRef } from '@switchyard/http';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { RepositoryCoverage } from '@switchyard/code-host/pull-requests';

/**
 * Issue #9: in GitHub mode a repository exists for the API once an installation of the App covers
 * it; any other answers 404 on every route that names one (`:owner` and `:repository`). Runs
 * after the guards, so a caller without a valid key learns nothing about coverage; a malformed
 * name is left to the route's own validation (422). Sandbox mode covers every repository.
 */
@Injectable()
export class RepositoryCoverageInterceptor implements NestInterceptor {
  constructor(@Inject(RepositoryCoverage) private readonly coverage: RepositoryCoverage) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const params = (context.switchToHttp().getRequest<FastifyRequest>().params ?? {}) as Record<
      string,
      unknown
    >;
    if (params.owner === undefined || params.repository === undefined) return next.handle();
    let repository: RepositoryRef;
    try {
      repository = parseRepositoryRef(params);
    } catch {
      return next.handle();
    }
    if (!(await this.coverage.covers(repository.key)))
      throw new NotFoundException(
        `No installation of the GitHub App covers ${repository.owner}/${repository.repository}`,
      );
    return next.handle();
  }
}
