import type {
  CheckRunRecord,
  CommentRecord,
  LabelRecord,
  PullRecord,
  RepositoryRecord,
  ReviewRecord,
  SandboxUser,
  StatusRecord,
  StoredCommit,
  TeamRecord,
} from './sandbox-records';

/**
 * GitHub's JSON for the sandbox's records, field for field as api.github.com answers (the contract
 * tests hold every shape against @octokit/openapi and @octokit/openapi-webhooks). URLs point into the
 * sandbox's own API base; `html_url`s point beside it, where no page is served.
 */
export class GitHubShapes {
  readonly html: string;

  constructor(readonly api: string) {
    this.html = `${api}/web`;
  }

  nodeId(kind: string, id: number | string): string {
    return Buffer.from(`${kind}:${id}`).toString('base64url');
  }

  user(user: SandboxUser) {
    const path = encodeURIComponent(user.login);
    const url = `${this.api}/users/${path}`;
    return {
      login: user.login,
      id: user.id,
      node_id: this.nodeId(user.type, user.id),
      avatar_url: `${this.html}/avatars/${path}`,
      gravatar_id: '',
      url,
      html_url: `${this.html}/${path}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: user.type,
      user_view_type: 'public',
      site_admin: false,
    };
  }

  repository(repo: RepositoryRecord, openIssues: number) {
    const url = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const html = `${this.html}/${repo.owner}/${repo.name}`;
    return {
      id: repo.id,
      node_id: this.nodeId('Repository', repo.id),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      private: true,
      owner: this.user({ login: repo.owner, id: repo.ownerId, type: 'Organization' }),
      html_url: html,
      description: null,
      fork: false,
      url,
      archive_url: `${url}/{archive_format}{/ref}`,
      assignees_url: `${url}/assignees{/user}`,
      blobs_url: `${url}/git/blobs{/sha}`,
      branches_url: `${url}/branches{/branch}`,
      collaborators_url: `${url}/collaborators{/collaborator}`,
      comments_url: `${url}/comments{/number}`,
      commits_url: `${url}/commits{/sha}`,
      compare_url: `${url}/compare/{base}...{head}`,
      contents_url: `${url}/contents/{+path}`,
      contributors_url: `${url}/contributors`,
      deployments_url: `${url}/deployments`,
      downloads_url: `${url}/downloads`,
      events_url: `${url}/events`,
      forks_url: `${url}/forks`,
      git_commits_url: `${url}/git/commits{/sha}`,
      git_refs_url: `${url}/git/refs{/sha}`,
      git_tags_url: `${url}/git/tags{/sha}`,
      git_url: `${html.replace(/^https?:/, 'git:')}.git`,
      issue_comment_url: `${url}/issues/comments{/number}`,
      issue_events_url: `${url}/issues/events{/number}`,
      issues_url: `${url}/issues{/number}`,
      keys_url: `${url}/keys{/key_id}`,
      labels_url: `${url}/labels{/name}`,
      languages_url: `${url}/languages`,
      merges_url: `${url}/merges`,
      milestones_url: `${url}/milestones{/number}`,
      notifications_url: `${url}/notifications{?since,all,participating}`,
      pulls_url: `${url}/pulls{/number}`,
      releases_url: `${url}/releases{/id}`,
      ssh_url: `git@sandbox:${repo.owner}/${repo.name}.git`,
      stargazers_url: `${url}/stargazers`,
      statuses_url: `${url}/statuses/{sha}`,
      subscribers_url: `${url}/subscribers`,
      subscription_url: `${url}/subscription`,
      tags_url: `${url}/tags`,
      teams_url: `${url}/teams`,
      trees_url: `${url}/git/trees{/sha}`,
      clone_url: `${html}.git`,
      mirror_url: null,
      hooks_url: `${url}/hooks`,
      svn_url: html,
      homepage: null,
      language: null,
      forks_count: 0,
      stargazers_count: 0,
      watchers_count: 0,
      size: 0,
      default_branch: repo.defaultBranch,
      open_issues_count: openIssues,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: false,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: 'private',
      pushed_at: repo.pushedAt,
      created_at: repo.createdAt,
      updated_at: repo.pushedAt,
      permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
      allow_rebase_merge: true,
      allow_squash_merge: true,
      allow_merge_commit: true,
      allow_auto_merge: false,
      delete_branch_on_merge: false,
      allow_update_branch: true,
      allow_forking: false,
      web_commit_signoff_required: false,
      license: null,
      forks: 0,
      open_issues: openIssues,
      watchers: 0,
      network_count: 0,
      subscribers_count: 0,
    };
  }

  /** `POST /repos/.../check-runs` and webhooks need the App that owns a check; the sandbox's CI is one. */
  app(owner: SandboxUser, createdAt: string) {
    return {
      id: SANDBOX_APP_ID,
      slug: SANDBOX_APP_SLUG,
      client_id: 'Iv1.sandbox',
      node_id: this.nodeId('Integration', SANDBOX_APP_ID),
      owner: this.user(owner),
      name: 'Switchyard sandbox',
      description: 'The sandbox forge that Switchyard serves in sandbox mode',
      external_url: this.api,
      html_url: `${this.html}/apps/${SANDBOX_APP_SLUG}`,
      created_at: createdAt,
      updated_at: createdAt,
      permissions: {
        checks: 'write',
        contents: 'write',
        issues: 'write',
        members: 'read',
        metadata: 'read',
        pull_requests: 'write',
        statuses: 'write',
      },
      events: [...SANDBOX_APP_EVENTS],
    };
  }

  installation(owner: SandboxUser, createdAt: string) {
    return {
      id: SANDBOX_INSTALLATION_ID,
      account: this.user(owner),
      repository_selection: 'all' as const,
      access_tokens_url: `${this.api}/app/installations/${SANDBOX_INSTALLATION_ID}/access_tokens`,
      repositories_url: `${this.api}/installation/repositories`,
      html_url: `${this.html}/settings/installations/${SANDBOX_INSTALLATION_ID}`,
      app_id: SANDBOX_APP_ID,
      app_slug: SANDBOX_APP_SLUG,
      target_id: owner.id,
      target_type: owner.type,
      permissions: this.app(owner, createdAt).permissions,
      events: [...SANDBOX_APP_EVENTS],
      created_at: createdAt,
      updated_at: createdAt,
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    };
  }

  label(repo: RepositoryRecord, label: LabelRecord) {
    return {
      id: label.id,
      node_id: this.nodeId('Label', label.id),
      url: `${this.api}/repos/${repo.owner}/${repo.name}/labels/${encodeURIComponent(label.name)}`,
      name: label.name,
      // `pull-request-simple` documents a label's description as a string, never null.
      description: label.description ?? '',
      color: label.color,
      default: false,
    };
  }

  branchRef(repo: RepositoryRecord, ref: string, sha: string, owner: SandboxUser, repository: object) {
    return { label: `${repo.owner}:${ref}`, ref, sha, user: this.user(owner), repo: repository };
  }

  pull(
    repo: RepositoryRecord,
    pull: PullRecord,
    context: {
      repository: object;
      owner: SandboxUser;
      mergeable: boolean | null;
      mergeableState: string;
      counts: {
        commits: number;
        additions: number;
        deletions: number;
        changedFiles: number;
        comments: number;
      };
    },
  ) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const url = `${repoUrl}/pulls/${pull.number}`;
    const html = `${this.html}/${repo.owner}/${repo.name}/pull/${pull.number}`;
    const issueUrl = `${repoUrl}/issues/${pull.number}`;
    const link = (href: string) => ({ href });
    return {
      url,
      id: pull.id,
      node_id: this.nodeId('PullRequest', pull.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issueUrl,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${repoUrl}/pulls/comments{/number}`,
      comments_url: `${issueUrl}/comments`,
      statuses_url: `${repoUrl}/statuses/${pull.headSha}`,
      number: pull.number,
      state: pull.state,
      locked: pull.locked,
      title: pull.title,
      user: this.user(pull.user),
      body: pull.body,
      labels: pull.labels.map((label) => this.label(repo, label)),
      milestone: null,
      active_lock_reason: null,
      created_at: pull.createdAt,
      updated_at: pull.updatedAt,
      closed_at: pull.closedAt,
      merged_at: pull.mergedAt,
      merge_commit_sha: pull.mergeCommitSha,
      assignee: pull.assignees[0] ? this.user(pull.assignees[0]) : null,
      assignees: pull.assignees.map((user) => this.user(user)),
      requested_reviewers: pull.requestedReviewers.map((user) => this.user(user)),
      requested_teams: pull.requestedTeams.map((slug) => this.teamSimple(repo.owner, slug)),
      head: this.branchRef(repo, pull.headRef, pull.headSha, context.owner, context.repository),
      base: this.branchRef(repo, pull.baseRef, pull.baseSha, context.owner, context.repository),
      _links: {
        self: link(url),
        html: link(html),
        issue: link(issueUrl),
        comments: link(`${issueUrl}/comments`),
        review_comments: link(`${url}/comments`),
        review_comment: link(`${repoUrl}/pulls/comments{/number}`),
        commits: link(`${url}/commits`),
        statuses: link(`${repoUrl}/statuses/${pull.headSha}`),
      },
      author_association: 'MEMBER' as const,
      auto_merge: null,
      draft: pull.draft,
      merged: pull.merged,
      mergeable: context.mergeable,
      rebaseable: context.mergeable,
      mergeable_state: context.mergeableState,
      merged_by: pull.mergedBy ? this.user(pull.mergedBy) : null,
      comments: context.counts.comments,
      review_comments: 0,
      maintainer_can_modify: pull.maintainerCanModify,
      commits: context.counts.commits,
      additions: context.counts.additions,
      deletions: context.counts.deletions,
      changed_files: context.counts.changedFiles,
    };
  }

  /** An issue's view of a pull request, as `issue_comment` webhooks carry it. */
  issueOfPull(repo: RepositoryRecord, pull: PullRecord, comments: number) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const url = `${repoUrl}/issues/${pull.number}`;
    const html = `${this.html}/${repo.owner}/${repo.name}/pull/${pull.number}`;
    return {
      url,
      repository_url: repoUrl,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: html,
      id: pull.id,
      node_id: this.nodeId('Issue', pull.id),
      number: pull.number,
      title: pull.title,
      user: this.user(pull.user),
      labels: pull.labels.map((label) => this.label(repo, label)),
      state: pull.state,
      locked: pull.locked,
      assignee: pull.assignees[0] ? this.user(pull.assignees[0]) : null,
      assignees: pull.assignees.map((user) => this.user(user)),
      milestone: null,
      comments,
      created_at: pull.createdAt,
      updated_at: pull.updatedAt,
      closed_at: pull.closedAt,
      author_association: 'MEMBER' as const,
      active_lock_reason: null,
      draft: pull.draft,
      pull_request: {
        url: `${repoUrl}/pulls/${pull.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: pull.mergedAt,
      },
      body: pull.body,
      reactions: this.reactions(url),
      timeline_url: `${url}/timeline`,
      performed_via_github_app: null,
      state_reason: null,
    };
  }

  reactions(url: string) {
    return {
      url: `${url}/reactions`,
      total_count: 0,
      '+1': 0,
      '-1': 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: 0,
      rocket: 0,
      eyes: 0,
    };
  }

  comment(repo: RepositoryRecord, comment: CommentRecord) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const url = `${repoUrl}/issues/comments/${comment.id}`;
    return {
      url,
      html_url: `${this.html}/${repo.owner}/${repo.name}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
      issue_url: `${repoUrl}/issues/${comment.issueNumber}`,
      id: comment.id,
      node_id: this.nodeId('IssueComment', comment.id),
      user: this.user(comment.user),
      created_at: comment.createdAt,
      updated_at: comment.updatedAt,
      author_association: 'MEMBER' as const,
      body: comment.body,
      reactions: this.reactions(url),
      performed_via_github_app: null,
    };
  }

  review(repo: RepositoryRecord, review: ReviewRecord) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const html = `${this.html}/${repo.owner}/${repo.name}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
    const pullUrl = `${repoUrl}/pulls/${review.pullNumber}`;
    return {
      id: review.id,
      node_id: this.nodeId('PullRequestReview', review.id),
      user: this.user(review.user),
      body: review.body,
      state: review.state,
      html_url: html,
      pull_request_url: pullUrl,
      _links: { html: { href: html }, pull_request: { href: pullUrl } },
      submitted_at: review.submittedAt,
      commit_id: review.commitId,
      author_association: 'MEMBER' as const,
    };
  }

  checkRun(
    repo: RepositoryRecord,
    run: CheckRunRecord,
    appOwner: SandboxUser,
    pulls: Array<{
      number: number;
      id: number;
      headRef: string;
      headSha: string;
      baseRef: string;
      baseSha: string;
    }>,
  ) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const url = `${repoUrl}/check-runs/${run.id}`;
    const pullRef = (ref: string, sha: string) => ({
      ref,
      sha,
      repo: { id: repo.id, url: repoUrl, name: repo.name },
    });
    return {
      id: run.id,
      head_sha: run.headSha,
      node_id: this.nodeId('CheckRun', run.id),
      external_id: run.externalId,
      url,
      html_url: `${this.html}/${repo.owner}/${repo.name}/runs/${run.id}`,
      details_url: run.detailsUrl ?? `${this.html}/${repo.owner}/${repo.name}/runs/${run.id}`,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.startedAt,
      completed_at: run.completedAt,
      output: {
        title: run.output.title,
        summary: run.output.summary,
        text: run.output.text,
        annotations_count: 0,
        annotations_url: `${url}/annotations`,
      },
      name: run.name,
      check_suite: { id: run.suiteId },
      app: this.app(appOwner, repo.createdAt),
      pull_requests: pulls.map((pull) => ({
        url: `${repoUrl}/pulls/${pull.number}`,
        id: pull.id,
        number: pull.number,
        head: pullRef(pull.headRef, pull.headSha),
        base: pullRef(pull.baseRef, pull.baseSha),
      })),
    };
  }

  status(repo: RepositoryRecord, status: StatusRecord) {
    return {
      url: `${this.api}/repos/${repo.owner}/${repo.name}/statuses/${status.sha}`,
      avatar_url: null,
      id: status.id,
      node_id: this.nodeId('StatusContext', status.id),
      state: status.state,
      description: status.description,
      target_url: status.targetUrl,
      context: status.context,
      created_at: status.createdAt,
      updated_at: status.updatedAt,
      creator: this.user(status.creator),
    };
  }

  gitCommit(repo: RepositoryRecord, commit: StoredCommit) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    return {
      sha: commit.sha,
      node_id: this.nodeId('Commit', commit.sha),
      url: `${repoUrl}/git/commits/${commit.sha}`,
      html_url: `${this.html}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
      author: { ...commit.author },
      committer: { ...commit.committer },
      tree: { sha: commit.tree, url: `${repoUrl}/git/trees/${commit.tree}` },
      message: commit.message,
      parents: commit.parents.map((sha) => ({
        sha,
        url: `${repoUrl}/git/commits/${sha}`,
        html_url: `${this.html}/${repo.owner}/${repo.name}/commit/${sha}`,
      })),
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    };
  }

  /** The `commit` shape of `GET /commits/{ref}`, pull request commits and comparisons. */
  commit(repo: RepositoryRecord, commit: StoredCommit) {
    const repoUrl = `${this.api}/repos/${repo.owner}/${repo.name}`;
    const html = `${this.html}/${repo.owner}/${repo.name}/commit/${commit.sha}`;
    return {
      url: `${repoUrl}/commits/${commit.sha}`,
      sha: commit.sha,
      node_id: this.nodeId('Commit', commit.sha),
      html_url: html,
      comments_url: `${repoUrl}/commits/${commit.sha}/comments`,
      commit: {
        url: `${repoUrl}/git/commits/${commit.sha}`,
        author: { ...commit.author },
        committer: { ...commit.committer },
        message: commit.message,
        comment_count: 0,
        tree: { sha: commit.tree, url: `${repoUrl}/git/trees/${commit.tree}` },
        verification: {
          verified: false,
          reason: 'unsigned',
          signature: null,
          payload: null,
          verified_at: null,
        },
      },
      author: null,
      committer: null,
      parents: commit.parents.map((sha) => ({
        sha,
        url: `${repoUrl}/commits/${sha}`,
        html_url: `${this.html}/${repo.owner}/${repo.name}/commit/${sha}`,
      })),
    };
  }

  ref(repo: RepositoryRecord, ref: string, sha: string) {
    return {
      ref,
      node_id: this.nodeId('Ref', `${repo.id}:${ref}`),
      url: `${this.api}/repos/${repo.owner}/${repo.name}/git/${ref}`,
      object: { type: 'commit', sha, url: `${this.api}/repos/${repo.owner}/${repo.name}/git/commits/${sha}` },
    };
  }

  teamSimple(org: string, slug: string, team?: TeamRecord) {
    const id = team?.id ?? stableId(`team:${org}/${slug}`);
    const url = `${this.api}/orgs/${org}/teams/${slug}`;
    return {
      id,
      node_id: this.nodeId('Team', id),
      url,
      members_url: `${url}/members{/member}`,
      name: team?.name ?? slug,
      description: team?.description ?? null,
      permission: 'pull',
      privacy: 'closed',
      notification_setting: 'notifications_enabled',
      html_url: `${this.html}/orgs/${org}/teams/${slug}`,
      repositories_url: `${url}/repos`,
      slug,
      type: 'organization',
      parent: null,
    };
  }
}

export const SANDBOX_APP_ID = 1;
export const SANDBOX_APP_SLUG = 'switchyard-sandbox';
export const SANDBOX_INSTALLATION_ID = 1;
export const SANDBOX_APP_EVENTS = [
  'check_run',
  'check_suite',
  'issue_comment',
  'pull_request',
  'pull_request_review',
  'push',
  'status',
] as const;

/** A positive 31-bit id fixed by a name, so users and owners need no table of their own. */
export function stableId(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return ((hash >>> 0) % 2_000_000_000) + 1_000_000;
}

export const userNamed = (login: string, type: SandboxUser['type'] = 'User'): SandboxUser => ({
  login,
  id: stableId(`user:${login}`),
  type,
});

/** An organization: the owner of sandbox repositories and teams. */
export const organization = (login: string): SandboxUser => userNamed(login, 'Organization');
