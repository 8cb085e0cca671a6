import type { ForgeTransaction } from '../forge-transaction';
import type { PullRecord, RepositoryRecord } from '../sandbox-records';

/** A pull request and its repository, as a route names them: `/repos/{owner}/{name}/pulls/{number}`. */
export interface LoadedPull {
  readonly repo: RepositoryRecord;
  readonly pull: PullRecord;
}

/** The repository (created on first reference) and its pull request (404 when it has none). */
export async function loadPull(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
): Promise<LoadedPull> {
  const repo = await tx.repository(owner, name);
  return { repo, pull: await tx.pull(repo, number) };
}

/** One `pull_request` webhook of a change: its action and the fields it carries beside the pull request. */
export interface PullWebhook {
  readonly action: string;
  readonly extra?: Record<string, unknown>;
  /** The pull request as this webhook shows it (one label at a time); the saved one by default. */
  readonly pull?: PullRecord;
}

/** What a change to a pull request does, once its request is found valid. */
export interface PullChange {
  /** The pull request as it is saved; its `updatedAt` becomes the transaction's time. */
  readonly next: PullRecord;
  /** Git moves made once the pull request is saved, before its webhooks: a merge moves the base branch. */
  readonly moves?: () => Promise<void>;
  /** The `pull_request` webhooks, in order; their JSON shares what it computes from the repository. */
  readonly webhooks: readonly PullWebhook[];
  /** What follows the webhooks: a reopened pull request's CI. */
  readonly afterwards?: () => Promise<void>;
}

/**
 * The one shape of every change to a pull request: load it, let `decide` validate the request and
 * say what changes (throwing GitHub's error when it is refused, before anything is saved), then
 * save the pull request, make its git moves and queue its webhooks, in that order, in the
 * operation's transaction (the webhooks are delivered once it commits).
 */
export async function changePull(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  decide: (loaded: LoadedPull) => PullChange | Promise<PullChange>,
): Promise<LoadedPull> {
  const { repo, pull } = await loadPull(tx, owner, name, number);
  const change = await decide({ repo, pull });
  const saved: PullRecord = { ...change.next, updatedAt: tx.timestamp };
  await tx.savePull(repo, saved);
  await change.moves?.();
  if (change.webhooks.length > 0) {
    // Nothing a webhook sends changes what a pull request's JSON computes from the repository.
    const context = await tx.pullContext(repo, saved);
    for (const webhook of change.webhooks)
      await tx.emitPull(repo, webhook.pull ?? saved, webhook.action, webhook.extra, context);
  }
  await change.afterwards?.();
  return { repo, pull: saved };
}
