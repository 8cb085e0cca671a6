import {
  checkRunOf,
  commitStatusOf,
  repositoryRefOf,
  reviewOf,
  snapshotFromPullRequest,
  type GitHubCheckRun,
  type GitHubPullRequest,
  type GitHubReview,
} from '../../adapter/pull-request-mapping';
import {
  installationStreamId,
  parseMergifyCommand,
  pullRequestStreamId,
  repositoryKey,
  repositoryStreamId,
  type GitHubFactEvent,
} from '@switchyard/code-host/facts';

/** What one delivery records: its facts, all on one stream, so one append de-duplicates it. */
export interface DeliveryFacts {
  streamId: string;
  events: GitHubFactEvent[];
}

interface Repository {
  full_name: string;
  name: string;
  owner: { login: string };
  default_branch?: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- payloads are GitHub's JSON, read field by field below */
type Payload = Record<string, any>;

/**
 * The facts a webhook delivery carries, or null when Switchyard has no use for it (an event or
 * action it does not handle, a comment that is not a command, a comment on an issue).
 */
export function factsOfDelivery(eventName: string, payload: Payload): DeliveryFacts | null {
  const reader = READERS[eventName];
  return reader ? reader(payload) : null;
}

const READERS: Record<string, (payload: Payload) => DeliveryFacts | null> = {
  pull_request(payload) {
    const repo = payload.repository as Repository;
    const pull = payload.pull_request as GitHubPullRequest;
    const repository = repositoryKey(repo.full_name);
    return {
      streamId: pullRequestStreamId(repository, pull.number),
      events: [
        {
          type: 'github.pull_request_changed',
          data: {
            repository,
            number: pull.number,
            action: String(payload.action),
            pullRequest: snapshotFromPullRequest(pull, repositoryRefOf(repo)),
            label: typeof payload.label?.name === 'string' ? payload.label.name : null,
            sender: senderOf(payload),
          },
        },
      ],
    };
  },

  pull_request_review(payload) {
    const repository = repositoryKey((payload.repository as Repository).full_name);
    const number = payload.pull_request.number as number;
    return {
      streamId: pullRequestStreamId(repository, number),
      events: [
        {
          type: 'github.pull_request_reviewed',
          data: {
            repository,
            number,
            action: String(payload.action),
            review: reviewOf(payload.review as GitHubReview),
            sender: senderOf(payload),
          },
        },
      ],
    };
  },

  check_run(payload) {
    const repository = repositoryKey((payload.repository as Repository).full_name);
    const run = payload.check_run as GitHubCheckRun & { id: number; head_sha: string; pull_requests?: any[] };
    return {
      streamId: repositoryStreamId(repository),
      events: [
        {
          type: 'github.check_run_reported',
          data: {
            repository,
            headSha: run.head_sha,
            checkRunId: run.id,
            action: String(payload.action),
            check: checkRunOf(run),
            pullRequests: pullRequestNumbers(run.pull_requests),
          },
        },
      ],
    };
  },

  check_suite(payload) {
    const repository = repositoryKey((payload.repository as Repository).full_name);
    const suite = payload.check_suite;
    return {
      streamId: repositoryStreamId(repository),
      events: [
        {
          type: 'github.check_suite_reported',
          data: {
            repository,
            headSha: suite.head_sha,
            checkSuiteId: suite.id,
            action: String(payload.action),
            status: suite.status ?? null,
            conclusion: suite.conclusion ?? null,
            appSlug: suite.app?.slug ?? null,
            pullRequests: pullRequestNumbers(suite.pull_requests),
          },
        },
      ],
    };
  },

  status(payload) {
    const repository = repositoryKey((payload.repository as Repository).full_name);
    return {
      streamId: repositoryStreamId(repository),
      events: [
        {
          type: 'github.commit_status_reported',
          data: { repository, sha: payload.sha, check: commitStatusOf(payload as any) },
        },
      ],
    };
  },

  push(payload) {
    const repository = repositoryKey((payload.repository as Repository).full_name);
    return {
      streamId: repositoryStreamId(repository),
      events: [
        {
          type: 'github.branch_pushed',
          data: {
            repository,
            ref: payload.ref,
            before: payload.before,
            after: payload.after,
            created: Boolean(payload.created),
            deleted: Boolean(payload.deleted),
            forced: Boolean(payload.forced),
            pusher: payload.pusher?.name ?? senderOf(payload),
          },
        },
      ],
    };
  },

  installation(payload) {
    const all = repositoryNames(payload.repositories);
    const action = String(payload.action);
    return installationFacts(payload, {
      added: action === 'created' || action === 'unsuspend' ? all : [],
      removed: action === 'deleted' || action === 'suspend' ? all : [],
    });
  },

  installation_repositories(payload) {
    return installationFacts(payload, {
      added: repositoryNames(payload.repositories_added),
      removed: repositoryNames(payload.repositories_removed),
    });
  },

  issue_comment(payload) {
    if (payload.action !== 'created' || !payload.issue?.pull_request) return null;
    const parsed = parseMergifyCommand(String(payload.comment?.body ?? ''));
    if (!parsed) return null;
    const user = payload.comment.user;
    // A comment whose author's account is gone (GitHub sends `user: null`): no one to check.
    if (!user) return null;
    const repository = repositoryKey((payload.repository as Repository).full_name);
    const number = payload.issue.number as number;
    return {
      streamId: pullRequestStreamId(repository, number),
      events: [
        {
          type: 'github.command_commented',
          data: {
            repository,
            number,
            command: parsed.command,
            argument: parsed.argument,
            author: { login: user.login, id: user.id, type: user.type ?? 'User' },
            commentId: payload.comment.id,
            commentUrl: payload.comment.html_url,
          },
        },
      ],
    };
  },
};

function installationFacts(
  payload: Payload,
  repositories: { added: string[]; removed: string[] },
): DeliveryFacts {
  const installation = payload.installation;
  return {
    streamId: installationStreamId(installation.id),
    events: [
      {
        type: 'github.installation_changed',
        data: {
          installationId: installation.id,
          account: installation.account?.login ?? '',
          action: String(payload.action),
          repositoriesAdded: repositories.added,
          repositoriesRemoved: repositories.removed,
        },
      },
    ],
  };
}

const senderOf = (payload: Payload): string => payload.sender?.login ?? 'ghost';

/** GitHub's schema leaves `full_name` optional in removals: a repository without one names nothing. */
const repositoryNames = (repositories: unknown): string[] =>
  Array.isArray(repositories)
    ? repositories.flatMap((repo: { full_name?: string }) =>
        typeof repo.full_name === 'string' ? [repositoryKey(repo.full_name)] : [],
      )
    : [];

const pullRequestNumbers = (pulls: unknown): number[] =>
  Array.isArray(pulls) ? pulls.map((pull: { number: number }) => pull.number) : [];
