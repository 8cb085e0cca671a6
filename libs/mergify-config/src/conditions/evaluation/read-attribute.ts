import type { PullRequestCommit } from '@switchyard/code-host';
import type { ConditionLeaf } from '../condition-tree';
import type { SenderPermission } from '../syntax/attributes';
import { type ConditionContext, DEFAULT_CONFIGURATION_FILES } from './context';
import {
  addedFiles,
  bodyWithoutComments,
  checksIn,
  coAuthors,
  dependabotUpdates,
  dependsOn,
  isMergeCommit,
  modifiedFiles,
  removedFiles,
  reviewersWith,
  touchedFiles,
} from './pull-request-facts';

/** One element of a text attribute; check names carry the GitHub App that published them. */
export interface TextItem {
  text: string;
  app?: string | null;
}

/** What an attribute holds for one pull request, or why it cannot be known. */
export type AttributeReading =
  | { kind: 'boolean'; values: boolean[] }
  /** A single value (`list` false) is one entry, null when absent (no milestone). */
  | { kind: 'text'; list: boolean; values: (TextItem | null)[] }
  | { kind: 'integer'; value: number }
  | { kind: 'count'; value: number }
  | { kind: 'instants'; values: (string | null)[] }
  | { kind: 'permission'; value: SenderPermission }
  | { kind: 'now' }
  | { kind: 'unknown'; reason: string };

const texts = (values: readonly string[]): AttributeReading => ({
  kind: 'text',
  list: true,
  values: values.map((text) => ({ text })),
});
const one = (text: string | null): AttributeReading => ({
  kind: 'text',
  list: false,
  values: [text === null ? null : { text }],
});
const flag = (value: boolean): AttributeReading => ({ kind: 'boolean', values: [value] });
const unknown = (reason: string): AttributeReading => ({ kind: 'unknown', reason });

export function readAttribute(leaf: ConditionLeaf, context: ConditionContext): AttributeReading {
  if (leaf.commit) return readCommitField(leaf.commit.index, leaf.commit.field, context.pullRequest.commits);
  const pr = context.pullRequest;
  const queue = context.queue ?? null;
  switch (leaf.attribute) {
    case 'draft':
      return flag(pr.draft);
    case 'merged':
      return flag(pr.merged);
    case 'closed':
      return flag(pr.state === 'closed');
    case 'locked':
      return flag(pr.locked);
    case 'conflict':
      return flag(pr.mergeable === false || pr.mergeableState === 'dirty');
    case 'linear-history':
      return flag(!pr.commits.some(isMergeCommit));
    case 'from-fork':
      return flag(pr.head.repositoryFullName !== pr.base.repositoryFullName);
    case 'mergify-configuration-changed': {
      const paths = context.configurationFiles ?? DEFAULT_CONFIGURATION_FILES;
      return flag(touchedFiles(pr.files).some((file) => paths.includes(file)));
    }
    case 'number':
      return { kind: 'integer', value: pr.number };
    case 'queue-position':
      return { kind: 'integer', value: queue?.position ?? -1 };
    case 'author':
      return one(pr.author);
    case 'merged-by':
      return one(pr.mergedBy);
    case 'merge-commit-sha':
      return one(pr.mergeCommitSha);
    case 'milestone':
      return one(pr.milestone);
    case 'base':
      return one(pr.base.ref);
    case 'head':
      return one(pr.head.ref);
    case 'head-repo-full-name':
      return one(pr.head.repositoryFullName);
    case 'title':
      return one(pr.title);
    case 'body':
      return one(bodyWithoutComments(pr.body));
    case 'body-raw':
      return one(pr.body);
    case 'repository-name':
      return one(pr.repository.name);
    case 'repository-full-name':
      return one(pr.repository.fullName);
    case 'queue-name':
      return one(queue?.name ?? null);
    case 'queue-dequeue-reason':
      return one(queue?.dequeueReason ?? 'NONE');
    case 'github-review-decision':
      if (context.reviewDecision === undefined) return unknown("GitHub's review decision is not known here");
      return one(context.reviewDecision);
    case 'sender':
      return context.command
        ? one(context.command.login)
        : unknown('`sender` is only known when checking a command');
    case 'sender-permission':
      return context.command
        ? { kind: 'permission', value: context.command.permission }
        : unknown('`sender-permission` is only known when checking a command');
    case 'assignee':
      return texts(pr.assignees);
    case 'label':
      return texts(pr.labels);
    case 'review-requested':
      return texts([...pr.requestedReviewers, ...pr.requestedTeams]);
    case 'approved-reviews-by':
      return texts(reviewersWith(pr, 'APPROVED'));
    case 'dismissed-reviews-by':
      return texts(reviewersWith(pr, 'DISMISSED'));
    case 'changes-requested-reviews-by':
      return texts(reviewersWith(pr, 'CHANGES_REQUESTED'));
    case 'commented-reviews-by':
      return texts(reviewersWith(pr, 'COMMENTED'));
    case 'commits-unverified':
      return texts(pr.commits.filter((commit) => !commit.verified).map((commit) => commit.message));
    case 'deployment-success':
    case 'deployment-failure':
      if (!context.deployments) return unknown('deployments are not known here');
      return texts(
        leaf.attribute === 'deployment-success' ? context.deployments.success : context.deployments.failure,
      );
    case 'review-threads-resolved':
    case 'review-threads-unresolved':
      if (!context.reviewThreads) return unknown('review threads are not known here');
      return texts(
        leaf.attribute === 'review-threads-resolved'
          ? context.reviewThreads.resolved
          : context.reviewThreads.unresolved,
      );
    case 'files':
      return texts(touchedFiles(pr.files));
    case 'added-files':
      return texts(addedFiles(pr.files));
    case 'modified-files':
      return texts(modifiedFiles(pr.files));
    case 'removed-files':
      return texts(removedFiles(pr.files));
    case 'depends-on':
      return texts(dependsOn(pr));
    case 'dependabot-dependency-name':
      return texts(dependabotUpdates(pr.commits).name);
    case 'dependabot-dependency-type':
      return texts(dependabotUpdates(pr.commits).type);
    case 'dependabot-update-type':
      return texts(dependabotUpdates(pr.commits).updateType);
    case 'scope':
      if (!context.scopes) return unknown('the scopes of this pull request are not known here');
      return texts(context.scopes);
    case 'commits-behind':
      return pr.commitsBehind === null
        ? unknown('the base branch has not been compared with the pull request yet')
        : { kind: 'count', value: pr.commitsBehind };
    case 'added-lines':
      return { kind: 'count', value: sum(pr.files.map((file) => file.additions)) };
    case 'deleted-lines':
      return { kind: 'count', value: sum(pr.files.map((file) => file.deletions)) };
    case 'modified-lines':
      return { kind: 'count', value: sum(pr.files.map((file) => file.additions + file.deletions)) };
    case 'co-authors':
      return { kind: 'count', value: coAuthors(pr).length };
    case 'updates':
      return context.updates
        ? texts(context.updates.map((update) => update.headSha))
        : unknown('the head updates of this pull request are not known here');
    case 'commits':
      return texts(pr.commits.map((commit) => commit.message));
    case 'created-at':
      return { kind: 'instants', values: [pr.createdAt] };
    case 'updated-at':
      return { kind: 'instants', values: [pr.updatedAt] };
    case 'closed-at':
      return { kind: 'instants', values: [pr.closedAt] };
    case 'merged-at':
      return { kind: 'instants', values: [pr.mergedAt] };
    case 'queued-at':
      return { kind: 'instants', values: [queue?.queuedAt ?? null] };
    case 'queue-merge-started-at':
      return { kind: 'instants', values: [queue?.mergeStartedAt ?? null] };
    case 'current-datetime':
    case 'schedule':
      return { kind: 'now' };
    default:
      if (leaf.attribute.startsWith('check'))
        return {
          kind: 'text',
          list: true,
          values: checksIn(pr, leaf.attribute).map((check) => ({ text: check.name, app: check.appSlug })),
        };
      return unknown(`\`${leaf.attribute}\` is not evaluated`);
  }
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

function readCommitField(
  index: number | '*',
  field: string,
  commits: readonly PullRequestCommit[],
): AttributeReading {
  const picked =
    index === '*'
      ? commits
      : [commits[index < 0 ? commits.length + index : index]].filter((commit) => commit !== undefined);
  switch (field) {
    case 'author':
      return texts(picked.map((commit) => commit.author.login ?? commit.author.name));
    case 'committer':
      return texts(picked.map((commit) => commit.committer.login ?? commit.committer.name));
    case 'email_author':
      return texts(picked.map((commit) => commit.author.email));
    case 'email_committer':
      return texts(picked.map((commit) => commit.committer.email));
    case 'commit_message':
      return texts(picked.map((commit) => commit.message));
    case 'date_author':
      return { kind: 'instants', values: picked.map((commit) => commit.author.date) };
    case 'date_committer':
      return { kind: 'instants', values: picked.map((commit) => commit.committer.date) };
    default:
      return { kind: 'boolean', values: picked.map((commit) => commit.verified) };
  }
}
