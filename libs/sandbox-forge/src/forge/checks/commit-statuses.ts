import { GitHubApiError, optionalString, requiredString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import { resolveRef } from '../repository';
import type { CommitState, StatusRecord } from '../sandbox-records';

/** Commit statuses: what CI systems report on a commit by context, and their combined state. */
type Body = Record<string, unknown>;

const STATES: readonly CommitState[] = ['error', 'failure', 'pending', 'success'];

export async function createStatus(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  sha: string,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const state = requiredString(body, 'state') as CommitState;
  if (!STATES.includes(state))
    throw GitHubApiError.unprocessable('Validation Failed', [
      { resource: 'Status', field: 'state', code: 'custom' },
    ]);
  if (!(await tx.store.commit(sha))) throw GitHubApiError.unprocessable(`No commit found for SHA: ${sha}`);
  const status: StatusRecord = {
    id: await tx.store.nextId(),
    sha,
    state,
    context: optionalString(body, 'context') ?? 'default',
    description: optionalString(body, 'description') ?? null,
    targetUrl: optionalString(body, 'target_url') ?? null,
    creator: tx.actor,
    createdAt: tx.timestamp,
    updatedAt: tx.timestamp,
  };
  await tx.store.saveRecord('status', status.id, repo.id, sha, status);
  const branches = [];
  for (const { ref, sha: head } of await tx.store.refs(repo.id, 'refs/heads/')) {
    if (head !== sha) continue;
    branches.push({
      name: ref.slice('refs/heads/'.length),
      commit: { sha, url: `${tx.shapes.api}/repos/${repo.owner}/${repo.name}/commits/${sha}` },
      protected: false,
    });
  }
  const commit = tx.shapes.commit(repo, await tx.commitOrFail(sha));
  await tx.emit('status', repo, {
    id: status.id,
    sha,
    name: `${repo.owner}/${repo.name}`,
    target_url: status.targetUrl,
    avatar_url: null,
    context: status.context,
    description: status.description,
    state: status.state,
    commit: { ...commit, commit: { ...commit.commit, verification: { ...commit.commit.verification } } },
    branches,
    created_at: status.createdAt,
    updated_at: status.updatedAt,
  });
  return tx.shapes.status(repo, status);
}

export async function listStatuses(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const sha = await resolveRef(tx, repo, ref);
  const statuses = await tx.store.records<StatusRecord>(repo.id, 'status', sha);
  return statuses.reverse().map((status) => tx.shapes.status(repo, status));
}

/** The latest status per context, and their sum: failure or error wins, then pending, else success. */
export async function combinedStatus(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const sha = await resolveRef(tx, repo, ref);
  const latest = new Map<string, StatusRecord>();
  for (const status of await tx.store.records<StatusRecord>(repo.id, 'status', sha))
    latest.set(status.context, status);
  const statuses = [...latest.values()];
  const states = statuses.map((status) => status.state);
  const state =
    states.includes('failure') || states.includes('error')
      ? 'failure'
      : states.length === 0 || states.includes('pending')
        ? 'pending'
        : 'success';
  const repoUrl = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}`;
  return {
    state,
    statuses: statuses.map((status) => {
      const { creator: _creator, ...simple } = tx.shapes.status(repo, status);
      return { ...simple, required: false };
    }),
    sha,
    total_count: statuses.length,
    repository: minimalRepository(await tx.repositoryJson(repo)),
    commit_url: `${repoUrl}/commits/${sha}`,
    url: `${repoUrl}/commits/${sha}/status`,
  };
}

/** `minimal-repository`: the repository without the counters only full answers carry. */
function minimalRepository(full: Record<string, unknown>) {
  const { network_count: _networkCount, subscribers_count: _subscribersCount, ...minimal } = full;
  return minimal;
}
