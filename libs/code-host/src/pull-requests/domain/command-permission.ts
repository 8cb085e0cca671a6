import type { RepositoryPermission } from '../../port/code-host';
import type { MergifyCommandName } from '../../facts/github-fact.events';

const RANK: Record<RepositoryPermission, number> = {
  none: 0,
  read: 1,
  triage: 2,
  write: 3,
  maintain: 4,
  admin: 5,
};

export interface CommandRequest {
  command: MergifyCommandName;
  author: string;
  authorPermission: RepositoryPermission;
  pullRequestAuthor: string;
  /** The head branch lives in another repository. */
  fromFork: boolean;
}

/**
 * Queue-semantics §1.9 defaults: a command needs the commenter's permission to be at least write;
 * `refresh` is also accepted from the pull request's author on a fork. null means allowed,
 * otherwise the reason for the refusal.
 */
export function commandRefusal(request: CommandRequest): string | null {
  if (RANK[request.authorPermission] >= RANK.write) return null;
  if (request.command === 'refresh' && request.fromFork && request.author === request.pullRequestAuthor)
    return null;
  return `@${request.author} has ${request.authorPermission} permission; the ${request.command} command needs write`;
}
