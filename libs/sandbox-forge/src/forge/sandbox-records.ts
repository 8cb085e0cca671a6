import type { CommitObject } from '../git/git-objects';

/** What the sandbox stores, in its own words; github-shapes.ts turns these into GitHub's JSON. */
export interface SandboxUser {
  readonly login: string;
  readonly id: number;
  readonly type: 'User' | 'Bot' | 'Organization';
}

export interface RepositoryRecord {
  readonly id: number;
  readonly owner: string;
  readonly ownerId: number;
  readonly name: string;
  readonly defaultBranch: string;
  readonly createdAt: string;
  readonly pushedAt: string;
  readonly nextNumber: number;
  /**
   * Roles given with `PUT collaborators/{username}`, by lowercased login. Anyone else may write;
   * the App's bot administers.
   */
  readonly collaborators?: Readonly<Record<string, RepositoryRole>>;
}

/** A collaborator's role on a repository, as GitHub's `role_name` names it. */
export type RepositoryRole = 'read' | 'triage' | 'write' | 'maintain' | 'admin';

export interface LabelRecord {
  readonly id: number;
  readonly name: string;
  readonly color: string;
  readonly description: string | null;
}

export interface PullRecord {
  readonly id: number;
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly user: SandboxUser;
  readonly state: 'open' | 'closed';
  readonly draft: boolean;
  readonly locked: boolean;
  readonly headRef: string;
  readonly headSha: string;
  readonly baseRef: string;
  /** The base branch's head when last compared (GitHub reports it the same way). */
  readonly baseSha: string;
  readonly merged: boolean;
  readonly mergedAt: string | null;
  readonly mergedBy: SandboxUser | null;
  readonly mergeCommitSha: string | null;
  readonly closedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly labels: readonly LabelRecord[];
  readonly assignees: readonly SandboxUser[];
  readonly requestedReviewers: readonly SandboxUser[];
  readonly requestedTeams: readonly string[];
  readonly maintainerCanModify: boolean;
}

export interface CommentRecord {
  readonly id: number;
  readonly issueNumber: number;
  readonly body: string;
  readonly user: SandboxUser;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';

export interface ReviewRecord {
  readonly id: number;
  readonly pullNumber: number;
  readonly user: SandboxUser;
  readonly body: string;
  readonly state: ReviewState;
  readonly commitId: string;
  readonly submittedAt: string;
}

export type CheckStatus = 'queued' | 'in_progress' | 'completed';
export type CheckConclusion =
  'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | 'stale';

export interface CheckRunRecord {
  readonly id: number;
  readonly suiteId: number;
  readonly name: string;
  readonly headSha: string;
  readonly status: CheckStatus;
  readonly conclusion: CheckConclusion | null;
  readonly startedAt: string;
  readonly completedAt: string | null;
  readonly externalId: string;
  readonly detailsUrl: string | null;
  readonly output: { title: string | null; summary: string | null; text: string | null };
  readonly app: 'sandbox-ci' | 'client';
}

export type CommitState = 'error' | 'failure' | 'pending' | 'success';

export interface StatusRecord {
  readonly id: number;
  readonly sha: string;
  readonly state: CommitState;
  readonly context: string;
  readonly description: string | null;
  readonly targetUrl: string | null;
  readonly creator: SandboxUser;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TeamRecord {
  readonly id: number;
  readonly org: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string | null;
  readonly members: readonly SandboxUser[];
  readonly createdAt: string;
}

export interface StoredCommit extends CommitObject {
  readonly sha: string;
}
