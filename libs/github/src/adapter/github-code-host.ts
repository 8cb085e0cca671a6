import {
  CONFIGURATION_FILE_PATHS,
  CodeHostError,
  isCodeHostError,
  summaryOf,
  type BranchHead,
  type CheckRunFields,
  type CheckRunRef,
  type CodeHost,
  type CodeHostErrorKind,
  type CodeHostUsage,
  type CommentRef,
  type Comparison,
  type ConfigurationFile,
  type CreatedPullRequest,
  type DraftPullRequestRequest,
  type IssueComment,
  type MergeOutcome,
  type MergeRequest,
  type NewCheckRun,
  type PullRequestSnapshot,
  type PullRequestSummary,
  type RepositoryCoordinates,
  type RepositoryPermission,
  type RepositoryRef,
} from '@switchyard/code-host';
import { toCodeHostError } from './error-mapping';
import { AppInstallationClients, type GitHubClients } from './github-clients';
import {
  changedFileOf,
  checkRunOf,
  commitOf,
  commitStatusOf,
  repositoryRefOf,
  reviewOf,
  snapshotFromPullRequest,
} from './pull-request-mapping';
import type { RequestMeter } from './request-meter';

type StatusKinds = Partial<Record<number, CodeHostErrorKind>>;

/**
 * The CodeHost port over GitHub's REST API with Octokit. The same adapter drives github.com,
 * GitHub Enterprise Server and the sandbox forge; only the clients (App installation tokens or
 * one token) and the base URL differ.
 */
export class GitHubCodeHost implements CodeHost {
  constructor(
    private readonly clients: GitHubClients,
    private readonly meter: RequestMeter,
  ) {}

  /** REST calls and writes since start, per operation. */
  usage(): CodeHostUsage {
    return structuredClone(this.meter.total);
  }
  /** The App's installations, listed with this host's own clients (GitHub mode); null in sandbox mode. */
  installationLister(): AppInstallationClients | null {
    return this.clients instanceof AppInstallationClients ? this.clients : null;
  }

  metered<T>(work: () => Promise<T>): Promise<{ result: T; usage: CodeHostUsage }> {
    return this.meter.metered(work);
  }

  getRepository(repository: RepositoryCoordinates): Promise<RepositoryRef> {
    return this.operation('getRepository', `repository ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.repos.get({ owner: repository.owner, repo: repository.name });
      return repositoryRefOf(data);
    });
  }

  getPullRequest(repository: RepositoryCoordinates, number: number): Promise<PullRequestSnapshot> {
    return this.operation('getPullRequest', `pull request ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const target = { owner: repository.owner, repo: repository.name };
      const { data: pull } = await octokit.rest.pulls.get({ ...target, pull_number: number });
      const head = pull.head.sha;
      const [reviews, files, commits, checkRuns, status, comparison] = await Promise.all([
        octokit.paginate(octokit.rest.pulls.listReviews, { ...target, pull_number: number, per_page: 100 }),
        octokit.paginate(octokit.rest.pulls.listFiles, { ...target, pull_number: number, per_page: 100 }),
        octokit.paginate(octokit.rest.pulls.listCommits, { ...target, pull_number: number, per_page: 100 }),
        octokit.paginate(octokit.rest.checks.listForRef, { ...target, ref: head, per_page: 100 }),
        octokit.rest.repos.getCombinedStatusForRef({ ...target, ref: head, per_page: 100 }),
        pull.state === 'open'
          ? octokit.rest.repos.compareCommitsWithBasehead({
              ...target,
              basehead: `${pull.base.ref}...${head}`,
              per_page: 1,
            })
          : null,
      ]);
      return {
        ...snapshotFromPullRequest(pull, repositoryRefOf(pull.base.repo)),
        reviews: reviews.map(reviewOf),
        files: files.map(changedFileOf),
        commits: commits.map(commitOf),
        checks: [...checkRuns.map(checkRunOf), ...status.data.statuses.map(commitStatusOf)],
        commitsBehind: comparison ? comparison.data.behind_by : null,
      };
    });
  }

  getPullRequestSummary(repository: RepositoryCoordinates, number: number): Promise<PullRequestSummary> {
    return this.operation('getPullRequestSummary', `pull request ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data: pull } = await octokit.rest.pulls.get({
        owner: repository.owner,
        repo: repository.name,
        pull_number: number,
      });
      return summaryOf(snapshotFromPullRequest(pull, repositoryRefOf(pull.base.repo)));
    });
  }

  getConfiguration(repository: RepositoryCoordinates, ref?: string): Promise<ConfigurationFile | null> {
    return this.operation('getConfiguration', `configuration of ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      for (const path of CONFIGURATION_FILE_PATHS) {
        try {
          const { data } = await octokit.rest.repos.getContent({
            owner: repository.owner,
            repo: repository.name,
            path,
            ...(ref === undefined ? {} : { ref }),
          });
          if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) continue;
          const content = Buffer.from(data.content, 'base64').toString('utf8');
          return { path, content, sha: data.sha, ref: ref ?? null };
        } catch (error) {
          if ((error as { status?: number }).status === 404) continue;
          throw error;
        }
      }
      return null;
    });
  }

  getBranchHead(repository: RepositoryCoordinates, branch: string): Promise<BranchHead> {
    return this.operation('getBranchHead', `branch ${branch} of ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.repos.getBranch({
        owner: repository.owner,
        repo: repository.name,
        branch,
      });
      return { name: data.name, sha: data.commit.sha };
    });
  }

  compare(repository: RepositoryCoordinates, base: string, head: string): Promise<Comparison> {
    return this.operation('compare', `comparison ${base}...${head} in ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
        owner: repository.owner,
        repo: repository.name,
        basehead: `${base}...${head}`,
      });
      return {
        status: data.status,
        aheadBy: data.ahead_by,
        behindBy: data.behind_by,
        mergeBaseSha: data.merge_base_commit.sha,
        files: (data.files ?? []).map((file) => file.filename),
      };
    });
  }

  listTeamMembers(org: string, teamSlug: string): Promise<string[]> {
    return this.operation('listTeamMembers', `team @${org}/${teamSlug}`, async () => {
      const octokit = await this.clients.forOrganization(org);
      const members = await octokit.paginate(octokit.rest.teams.listMembersInOrg, {
        org,
        team_slug: teamSlug,
        per_page: 100,
      });
      return members.map((member) => member.login);
    });
  }

  isTeamMember(org: string, teamSlug: string, login: string): Promise<boolean> {
    return this.operation('isTeamMember', `membership of ${login} in @${org}/${teamSlug}`, async () => {
      const octokit = await this.clients.forOrganization(org);
      try {
        const { data } = await octokit.rest.teams.getMembershipForUserInOrg({
          org,
          team_slug: teamSlug,
          username: login,
        });
        return data.state === 'active';
      } catch (error) {
        if ((error as { status?: number }).status === 404) return false;
        throw error;
      }
    });
  }

  getPermission(repository: RepositoryCoordinates, login: string): Promise<RepositoryPermission> {
    return this.operation('getPermission', `permission of ${login} on ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
          owner: repository.owner,
          repo: repository.name,
          username: login,
        });
        // `permission` folds maintain into write and triage into read; `role_name` keeps them.
        const role = data.role_name as RepositoryPermission;
        return ['admin', 'maintain', 'write', 'triage', 'read'].includes(role)
          ? role
          : (data.permission as RepositoryPermission);
      } catch (error) {
        if ((error as { status?: number }).status === 404) return 'none';
        throw error;
      }
    });
  }

  listComments(repository: RepositoryCoordinates, number: number): Promise<IssueComment[]> {
    return this.operation('listComments', `comments of ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const [comments, ownLogin] = await Promise.all([
        octokit.paginate(octokit.rest.issues.listComments, {
          owner: repository.owner,
          repo: repository.name,
          issue_number: number,
          per_page: 100,
        }),
        this.clients.ownLogin(),
      ]);
      return comments.map((comment) => {
        const author = comment.user?.login ?? '';
        return {
          id: comment.id,
          url: comment.html_url,
          body: comment.body ?? '',
          author,
          ownComment: author.toLowerCase() === ownLogin.toLowerCase(),
        };
      });
    });
  }

  createBranch(repository: RepositoryCoordinates, branch: string, sha: string): Promise<BranchHead> {
    return this.operation(
      'createBranch',
      `creating branch ${branch} in ${full(repository)}`,
      async () => {
        const octokit = await this.clients.forRepository(repository);
        const { data } = await octokit.rest.git.createRef({
          owner: repository.owner,
          repo: repository.name,
          ref: `refs/heads/${branch}`,
          sha,
        });
        return { name: branch, sha: data.object.sha };
      },
      { 422: 'conflict' },
    );
  }

  updateBranch(
    repository: RepositoryCoordinates,
    branch: string,
    sha: string,
    options: { force?: boolean } = {},
  ): Promise<BranchHead> {
    return this.operation(
      'updateBranch',
      `moving branch ${branch} of ${full(repository)} to ${sha}`,
      async () => {
        const octokit = await this.clients.forRepository(repository);
        const { data } = await octokit.rest.git.updateRef({
          owner: repository.owner,
          repo: repository.name,
          ref: `heads/${branch}`,
          sha,
          force: options.force ?? false,
        });
        return { name: branch, sha: data.object.sha };
      },
      { 422: 'conflict' },
    );
  }

  deleteBranch(repository: RepositoryCoordinates, branch: string): Promise<void> {
    return this.operation(
      'deleteBranch',
      `deleting branch ${branch} of ${full(repository)}`,
      async () => {
        const octokit = await this.clients.forRepository(repository);
        await octokit.rest.git.deleteRef({
          owner: repository.owner,
          repo: repository.name,
          ref: `heads/${branch}`,
        });
      },
      { 422: 'not-found' },
    );
  }

  mergeIntoBranch(
    repository: RepositoryCoordinates,
    base: string,
    head: string,
    message?: string,
  ): Promise<BranchHead> {
    return this.operation(
      'mergeIntoBranch',
      `merging ${head} into ${base} of ${full(repository)}`,
      async () => {
        const octokit = await this.clients.forRepository(repository);
        const target = { owner: repository.owner, repo: repository.name };
        const response = await octokit.rest.repos.merge({
          ...target,
          base,
          head,
          ...(message === undefined ? {} : { commit_message: message }),
        });
        // 204: head is already in base; the branch stays where it is.
        if (response.status === 201) return { name: base, sha: response.data.sha };
        const { data } = await octokit.rest.git.getRef({ ...target, ref: `heads/${base}` });
        return { name: base, sha: data.object.sha };
      },
      { 409: 'conflict' },
    );
  }

  createDraftPullRequest(
    repository: RepositoryCoordinates,
    request: DraftPullRequestRequest,
  ): Promise<CreatedPullRequest> {
    return this.operation('createDraftPullRequest', `opening a draft in ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.pulls.create({
        owner: repository.owner,
        repo: repository.name,
        title: request.title,
        body: request.body,
        head: request.head,
        base: request.base,
        draft: true,
      });
      return { number: data.number, headSha: data.head.sha, url: data.html_url };
    });
  }

  closePullRequest(repository: RepositoryCoordinates, number: number): Promise<void> {
    return this.operation('closePullRequest', `closing ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      await octokit.rest.pulls.update({
        owner: repository.owner,
        repo: repository.name,
        pull_number: number,
        state: 'closed',
      });
    });
  }

  mergePullRequest(
    repository: RepositoryCoordinates,
    number: number,
    request: MergeRequest,
  ): Promise<MergeOutcome> {
    const what = `merging ${full(repository)}#${number} (${request.method})`;
    return this.operation('mergePullRequest', what, async () => {
      const octokit = await this.clients.forRepository(repository);
      const target = { owner: repository.owner, repo: repository.name };
      if (request.method === 'fast-forward') {
        // GitHub's merge endpoint has no fast-forward; moving the base ref without force is one.
        const { data: pull } = await octokit.rest.pulls.get({ ...target, pull_number: number });
        if (request.expectedHeadSha !== undefined && pull.head.sha !== request.expectedHeadSha)
          throw new CodeHostError('conflict', `${what}: the head moved to ${pull.head.sha}`, 409);
        try {
          await octokit.rest.git.updateRef({
            ...target,
            ref: `heads/${pull.base.ref}`,
            sha: pull.head.sha,
            force: false,
          });
        } catch (error) {
          throw toCodeHostError(error, what, { 422: 'not-mergeable' });
        }
        return { sha: pull.head.sha };
      }
      try {
        const { data } = await octokit.rest.pulls.merge({
          ...target,
          pull_number: number,
          merge_method: request.method,
          ...(request.expectedHeadSha === undefined ? {} : { sha: request.expectedHeadSha }),
          ...(request.commitTitle === undefined ? {} : { commit_title: request.commitTitle }),
          ...(request.commitMessage === undefined ? {} : { commit_message: request.commitMessage }),
        });
        return { sha: data.sha };
      } catch (error) {
        throw toCodeHostError(error, what, { 405: 'not-mergeable', 422: 'not-mergeable' });
      }
    });
  }

  updatePullRequestBranch(
    repository: RepositoryCoordinates,
    number: number,
    options: { expectedHeadSha?: string } = {},
  ): Promise<void> {
    return this.operation(
      'updatePullRequestBranch',
      `updating the branch of ${full(repository)}#${number}`,
      async () => {
        const octokit = await this.clients.forRepository(repository);
        // GitHub describes this body as a required object, even when it carries nothing.
        await octokit.rest.pulls.updateBranch({
          owner: repository.owner,
          repo: repository.name,
          pull_number: number,
          data: options.expectedHeadSha === undefined ? {} : { expected_head_sha: options.expectedHeadSha },
        });
      },
      { 422: 'conflict' },
    );
  }

  createCheckRun(repository: RepositoryCoordinates, checkRun: NewCheckRun): Promise<CheckRunRef> {
    return this.operation('createCheckRun', `check run ${checkRun.name} in ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.checks.create({
        owner: repository.owner,
        repo: repository.name,
        name: checkRun.name,
        head_sha: checkRun.headSha,
        ...checkRunBody(checkRun),
      });
      return { id: data.id };
    });
  }

  updateCheckRun(
    repository: RepositoryCoordinates,
    checkRunId: number,
    fields: CheckRunFields,
  ): Promise<CheckRunRef> {
    return this.operation('updateCheckRun', `check run ${checkRunId} in ${full(repository)}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.checks.update({
        owner: repository.owner,
        repo: repository.name,
        check_run_id: checkRunId,
        ...checkRunBody(fields),
      });
      return { id: data.id };
    });
  }

  addLabels(repository: RepositoryCoordinates, number: number, labels: string[]): Promise<string[]> {
    return this.operation('addLabels', `labelling ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.issues.addLabels({
        owner: repository.owner,
        repo: repository.name,
        issue_number: number,
        labels,
      });
      return data.map((label) => label.name);
    });
  }

  /** Removing a label the pull request does not carry is not an error: the outcome is the same. */
  removeLabel(repository: RepositoryCoordinates, number: number, label: string): Promise<void> {
    return this.operation('removeLabel', `unlabelling ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      try {
        await octokit.rest.issues.removeLabel({
          owner: repository.owner,
          repo: repository.name,
          issue_number: number,
          name: label,
        });
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
        await octokit.rest.pulls.get({ owner: repository.owner, repo: repository.name, pull_number: number });
      }
    });
  }

  comment(repository: RepositoryCoordinates, number: number, body: string): Promise<CommentRef> {
    return this.operation('comment', `commenting on ${full(repository)}#${number}`, async () => {
      const octokit = await this.clients.forRepository(repository);
      const { data } = await octokit.rest.issues.createComment({
        owner: repository.owner,
        repo: repository.name,
        issue_number: number,
        body,
      });
      return { id: data.id, url: data.html_url };
    });
  }

  updateComment(repository: RepositoryCoordinates, commentId: number, body: string): Promise<CommentRef> {
    return this.operation(
      'updateComment',
      `editing comment ${commentId} in ${full(repository)}`,
      async () => {
        const octokit = await this.clients.forRepository(repository);
        const { data } = await octokit.rest.issues.updateComment({
          owner: repository.owner,
          repo: repository.name,
          comment_id: commentId,
          body,
        });
        return { id: data.id, url: data.html_url };
      },
    );
  }

  private operation<T>(
    name: string,
    what: string,
    work: () => Promise<T>,
    kinds: StatusKinds = {},
  ): Promise<T> {
    return this.meter.operation(name, async () => {
      try {
        return await work();
      } catch (error) {
        if (isCodeHostError(error)) throw error;
        throw toCodeHostError(error, what, kinds);
      }
    });
  }
}

const full = (repository: RepositoryCoordinates) => `${repository.owner}/${repository.name}`;

function checkRunBody(fields: CheckRunFields) {
  return {
    ...(fields.status === undefined ? {} : { status: fields.status }),
    ...(fields.conclusion === undefined ? {} : { conclusion: fields.conclusion }),
    ...(fields.detailsUrl === undefined ? {} : { details_url: fields.detailsUrl }),
    ...(fields.externalId === undefined ? {} : { external_id: fields.externalId }),
    ...(fields.output === undefined ? {} : { output: fields.output }),
  };
}
