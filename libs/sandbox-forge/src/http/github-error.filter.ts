import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GitHubApiError } from '../forge/github-api-error';

/**
 * The sandbox answers errors as GitHub does, `{message, documentation_url}`, not with the
 * service's `{detail}`: its clients are GitHub clients (Octokit reads `message`).
 */
@Catch()
export class GitHubErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    let error: GitHubApiError;
    if (exception instanceof GitHubApiError) error = exception;
    else if (exception instanceof HttpException) {
      const status = exception.getStatus();
      error = new GitHubApiError(
        status,
        status === 404 ? 'Not Found' : status === 400 ? 'Problems parsing JSON' : exception.message,
      );
    } else {
      request.log.error({ err: exception, requestId: request.id }, 'Unhandled error in the sandbox forge');
      error = new GitHubApiError(500, 'Server Error');
    }
    if (reply.sent) return;
    void reply.status(error.status).type('application/json; charset=utf-8').send(error.body());
  }
}
