import { Inject, Injectable, Optional } from '@nestjs/common';
import { CODE_HOST, type CodeHost, isCodeHostError } from '@switchyard/code-host';
import { type Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';

/**
 * Used when no code host is wired (the embedded demo) or the host does not know the repository
 * (uploads may arrive before the repository is installed): the branch most repositories start on.
 */
export const ASSUMED_DEFAULT_BRANCH = 'main';

/** A default branch rarely changes; asking the host once a minute keeps it off the read path. */
const CACHE_MS = 60_000;

/** Each repository's default branch as the code host says, remembered for a minute. */
@Injectable()
export class DefaultBranches {
  private readonly cache = new Map<string, { branch: string; until: number }>();

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(CODE_HOST) private readonly codeHost?: CodeHost,
  ) {}

  async of(repository: { owner: string; repository: string; key: string }): Promise<string> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(repository.key);
    if (cached && cached.until > now) return cached.branch;
    const branch = await this.ask(repository);
    this.cache.set(repository.key, { branch, until: now + CACHE_MS });
    return branch;
  }

  private async ask(repository: { owner: string; repository: string }): Promise<string> {
    if (!this.codeHost) return ASSUMED_DEFAULT_BRANCH;
    try {
      const ref = await this.codeHost.getRepository({ owner: repository.owner, name: repository.repository });
      return ref.defaultBranch;
    } catch (error) {
      if (isCodeHostError(error, 'not-found')) return ASSUMED_DEFAULT_BRANCH;
      throw error;
    }
  }
}
