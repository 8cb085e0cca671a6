import {
  CodeHostError,
  type MergeRequest,
  type DraftPullRequestRequest,
  type PullRequestSummary,
  summaryOf,
} from '@switchyard/code-host';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config';

export const REPOSITORY = 'acme/widgets';
export const OUR_LOGIN = 'switchyard[bot]';

/**
 * A code host that keeps just enough of a repository to be honest about what the engine does to
 * it: a merged pull request stays merged and GitHub refuses to merge it a second time; branches
 * exist from their creation to their deletion; a draft's head is the branch it was opened from; a
 * head listed in `conflictingHeads` does not merge onto a queue branch.
 */
export class RecordingCodeHost {
  readonly merges: number[] = [];
  readonly drafts: number[] = [];
  private readonly merged = new Map<number, string>();
  private nextNumber = 100;

  getRepository = async () => ({
    owner: 'acme',
    name: 'widgets',
    fullName: REPOSITORY,
    defaultBranch: 'main',
  });
  configuration: string | null = null;
  getConfiguration = async () =>
    this.configuration === null
      ? null
      : { path: '.mergify.yml' as const, content: this.configuration, sha: 'c0', ref: null };
  /** The pull requests' conversations, as GitHub keeps them: each comment once, with its author. */
  readonly conversation = new Map<number, { number: number; body: string; author: string }>();
  /** Each comment created (a POST) and each edit (a PATCH), in order; and each listing. */
  readonly created: Array<{ number: number; body: string }> = [];
  readonly edited: Array<{ id: number; body: string }> = [];
  listings = 0;
  private nextCommentId = 1;
  comment = async (_r: unknown, number: number, body: string, author = OUR_LOGIN) => {
    const id = this.nextCommentId++;
    this.conversation.set(id, { number, body, author });
    if (author === OUR_LOGIN) this.created.push({ number, body });
    return { id, url: `https://github.test/acme/widgets/pull/${number}#issuecomment-${id}` };
  };
  updateComment = async (_r: unknown, id: number, body: string) => {
    const comment = this.conversation.get(id);
    if (!comment) throw new CodeHostError('not-found', `comment ${id}: Not Found`, 404);
    comment.body = body;
    this.edited.push({ id, body });
    return { id, url: '' };
  };
  listComments = async (_r: unknown, number: number) => {
    this.listings += 1;
    return [...this.conversation]
      .filter(([, comment]) => comment.number === number)
      .map(([id, comment]) => ({ id, url: '', ...comment, ownComment: comment.author === OUR_LOGIN }));
  };
  /** The bodies of pull request `number`'s comments, oldest first. */
  commentsOn = (number: number) =>
    [...this.conversation.values()].filter((comment) => comment.number === number).map((c) => c.body);

  /** The queue's branches that exist now, and every one it ever created. */
  readonly branches = new Set<string>();
  readonly branchesCreated: string[] = [];
  /** Pull request heads that conflict with what is already on a queue branch. */
  readonly conflictingHeads = new Set<string>();
  getBranchHead = async (_r: unknown, name: string) => {
    if (name === 'main') return { name, sha: 'base0' };
    if (!this.branches.has(name)) throw new CodeHostError('not-found', `Branch not found: ${name}`, 404);
    return { name, sha: `tip-of-${name}` };
  };
  createBranch = async (_r: unknown, name: string, sha: string) => {
    if (this.branches.has(name)) throw new CodeHostError('conflict', 'Reference already exists', 422);
    this.branches.add(name);
    this.branchesCreated.push(name);
    return { name, sha };
  };
  updateBranch = async (_r: unknown, name: string, sha: string) => ({ name, sha });
  deleteBranch = async (_r: unknown, name: string) => {
    if (!this.branches.delete(name))
      throw new CodeHostError('not-found', `Reference does not exist: ${name}`, 422);
  };
  mergeIntoBranch = async (_r: unknown, name: string, head: string) => {
    if (this.conflictingHeads.has(head)) throw new CodeHostError('conflict', 'Merge conflict', 409);
    return { name, sha: `tip-of-${name}` };
  };
  /** Each draft's head branch, and whether it is closed. */
  private readonly draftHeads = new Map<number, string>();
  private readonly closed = new Set<number>();
  createDraftPullRequest = async (_r: unknown, draft: DraftPullRequestRequest) => {
    const number = this.nextNumber++;
    this.drafts.push(number);
    this.draftHeads.set(number, draft.head);
    return { number, headSha: `draft-head-${number}`, url: '' };
  };
  closePullRequest = async (_r: unknown, number: number) => {
    this.closed.add(number);
  };
  readonly labelled: string[] = [];
  addLabels = async (_r: unknown, _n: number, labels: string[]) => {
    this.labelled.push(...labels);
    return labels;
  };
  removeLabel = async () => undefined;
  createCheckRun = async () => ({ id: 1 });
  readonly mergeRequests: MergeRequest[] = [];
  /** Called as a merge goes through, before its answer: what happens on the side meanwhile. */
  duringMerge: (number: number) => Promise<void> = async () => undefined;
  mergePullRequest = async (_r: unknown, number: number, request: MergeRequest) => {
    this.mergeRequests.push(request);
    if (this.merged.has(number))
      throw new CodeHostError('not-mergeable', 'Pull Request is not mergeable', 405);
    this.merges.push(number);
    const sha = `merge-of-${number}`;
    this.merged.set(number, sha);
    await this.duringMerge(number);
    return { sha };
  };
  /** Heads moved by `update-branch`: a pull request starts one commit behind its base. */
  private readonly updatedHeads = new Map<number, string>();
  /** Commits on the base that a pull request's head lacks until the queue updates it. */
  behindBase = 1;
  compare = async (_r: unknown, _base: string, head: string) => ({
    status: 'diverged' as const,
    aheadBy: 1,
    behindBy: head.startsWith('updated-') ? 0 : this.behindBase,
    mergeBaseSha: 'base0',
    files: [],
  });
  /** Reads after `update-branch` that still show the old head, as GitHub's answer comes first. */
  updateShowsAfterReads = 0;
  private readsBeforeUpdateShows = 0;
  updatePullRequestBranch = async (_r: unknown, number: number) => {
    this.updatedHeads.set(number, `updated-head-${number}`);
    this.readsBeforeUpdateShows = this.updateShowsAfterReads;
  };
  getPullRequestSummary = async (_r: unknown, number: number): Promise<PullRequestSummary> => {
    const summary = summaryOf(pullRequestSnapshotFixture());
    const updating = this.readsBeforeUpdateShows > 0;
    if (updating) this.readsBeforeUpdateShows -= 1;
    const draftHead = this.draftHeads.get(number);
    return {
      ...summary,
      number,
      head: {
        ...summary.head,
        ref: draftHead ?? summary.head.ref,
        sha: (!updating && this.updatedHeads.get(number)) || `head-${number}`,
      },
      merged: this.merged.has(number),
      mergeCommitSha: this.merged.get(number) ?? null,
      state: this.merged.has(number) || this.closed.has(number) ? 'closed' : 'open',
    };
  };
}
