import { GitHubApiError, optionalString, requiredString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import { resolveRef } from './commits';

/** Repositories, and merges of one branch into another (`POST /merges`). */
type Body = Record<string, unknown>;

export async function getRepository(tx: ForgeTransaction, owner: string, name: string) {
  return tx.repositoryJson(await tx.repository(owner, name));
}

/**
 * `POST /merges`: merges `head` into the branch `base` with a merge commit (201), answers 204 when
 * there is nothing to merge and 409 on a conflict.
 */
export async function mergeIntoBranch(tx: ForgeTransaction, owner: string, name: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const baseBranch = requiredString(body, 'base');
  const headRef = requiredString(body, 'head');
  const message = optionalString(body, 'commit_message');
  const base = await tx.branchHead(repo, baseBranch);
  if (!base) throw new GitHubApiError(404, 'Base does not exist');
  const head = await resolveRef(tx, repo, headRef).catch(() => {
    throw new GitHubApiError(404, 'Head does not exist');
  });
  if (await tx.isAncestor(head, base)) return { status: 204 as const, body: undefined };
  const merged = await tx.mergedFiles(base, head);
  if (!merged.clean) throw GitHubApiError.conflict('Merge conflict');
  const sha = await tx.writeCommit(
    merged.tree,
    [base, head],
    message ?? `Merge ${headRef} into ${baseBranch}`,
  );
  await tx.moveRef(repo, `refs/heads/${baseBranch}`, sha);
  return { status: 201 as const, body: tx.shapes.commit(repo, await tx.commitOrFail(sha)) };
}
