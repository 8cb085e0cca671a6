import type { PullRequestSnapshot } from '@switchyard/code-host';
import type { SenderPermission } from '../syntax/attributes';

/**
 * Everything a condition may read about one pull request at one instant. The snapshot comes from
 * the code host; the rest is what other parts of Switchyard know (the queue, scopes, teams) or what
 * only some callers have (the sender of a command). An attribute whose facts are absent is not
 * guessed: its condition does not match and its evaluation says why.
 */
export interface ConditionContext {
  pullRequest: PullRequestSnapshot;
  now: Date;
  /** Members of the teams the conditions name, keyed `org/slug` (lower case). */
  teams?: TeamMembership;
  /** Where the pull request stands in the merge queue; null or absent when it is not queued. */
  queue?: QueueFacts | null;
  /** The scopes the pull request touches (merge-queue scopes). */
  scopes?: readonly string[];
  /** Who sent the command being checked (`commands_restrictions` only). */
  command?: CommandSender | null;
  /** GitHub's review decision for the pull request. */
  reviewDecision?: 'APPROVED' | 'CHANGES_REQUESTED' | 'REVIEW_REQUIRED' | null;
  reviewThreads?: { resolved: readonly string[]; unresolved: readonly string[] };
  deployments?: { success: readonly string[]; failure: readonly string[] };
  /** Head changes while the pull request was open (`updates`). */
  updates?: readonly { headSha: string; timestamp: string }[];
  /** Paths that hold the Mergify configuration (`mergify-configuration-changed`). */
  configurationFiles?: readonly string[];
}

export type TeamMembership = Readonly<Record<string, readonly string[]>>;

export interface QueueFacts {
  name: string | null;
  /** 0 = first; -1 when not queued. */
  position: number;
  queuedAt: string | null;
  mergeStartedAt: string | null;
  /** The abort code that last ended its checks (`CHECKS_FAILED`); null or absent = never queued. */
  dequeueReason: string | null;
}

export interface CommandSender {
  login: string;
  permission: SenderPermission;
}

/** Where Mergify reads its configuration from (queue-semantics §1.1). */
export const DEFAULT_CONFIGURATION_FILES: readonly string[] = [
  '.mergify.yml',
  '.mergify/config.yml',
  '.github/mergify.yml',
];

/** The membership key of `@org/slug` (or `@slug`, in the repository owner's organization). */
export const teamKey = (org: string | null, slug: string, repositoryOwner: string): string =>
  `${org ?? repositoryOwner}/${slug}`.toLowerCase();
