import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { CredentialReadModel, hashSecret } from '@switchyard/auth';
import type { Clock } from '@switchyard/kernel';
import { APP_CONFIG, CLOCK, SQL_EXECUTOR, type SwitchyardConfig } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import type { FastifyRequest } from 'fastify';
import { GitHubApiError } from '../forge/github-api-error';
import { userNamed } from '../forge/github-shapes';
import type { SandboxUser } from '../forge/sandbox-records';
import { SandboxForge } from '../forge/sandbox-forge';

export type SandboxRequest = FastifyRequest & { sandboxUser?: SandboxUser };

/**
 * Accepts what GitHub accepts, `Authorization: token …` or `Bearer …`, with the sandbox's
 * credentials: the service's admin application keys and the installation tokens the sandbox minted
 * (both act as the App's bot), and the configured host tokens (each its own user). 401
 * "Bad credentials" otherwise, as GitHub answers.
 */
@Injectable()
export class SandboxAuthGuard implements CanActivate {
  private readonly credentials: CredentialReadModel;

  constructor(
    private readonly forge: SandboxForge,
    @Inject(SQL_EXECUTOR) executor: SqlExecutor,
    @Inject(APP_CONFIG) private readonly config: SwitchyardConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.credentials = new CredentialReadModel(executor);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SandboxRequest>();
    const match = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new GitHubApiError(401, 'Requires authentication');
    const user = await this.forge.authenticate(match[1], {
      hostUser: (token) => {
        const grant = this.config.hostTokens[token];
        return grant ? { ...userNamed(grant.user.login), id: grant.user.id } : null;
      },
      isAdminKey: async (token) => {
        const record = await this.credentials.findBySecretHash(hashSecret(token));
        const now = this.clock.now().getTime();
        return (
          record !== null &&
          record.kind === 'application_key' &&
          record.scope === 'admin' &&
          !record.revoked &&
          (record.expiresAt === null || record.expiresAt.getTime() > now)
        );
      },
    });
    if (!user) throw new GitHubApiError(401, 'Bad credentials');
    request.sandboxUser = user;
    return true;
  }
}
