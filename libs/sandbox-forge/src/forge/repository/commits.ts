import { diffTrees } from '../../git/three-way-merge';
import { GitHubApiError } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import type { RepositoryRecord } from '../sandbox-records';

// Commits, the files they change and comparisons between two of them.

export async function getGitCommit(tx: ForgeTransaction, owner: string, name: string, sha: string) {
  const repo = await tx.repository(owner, name);
  const commit = await tx.store.commit(sha);
  if (!commit) throw GitHubApiError.notFound();
  return tx.shapes.gitCommit(repo, commit);
}

/** `GET /commits/{ref}`: a sha, a branch or a full ref. */
export async function resolveRef(tx: ForgeTransaction, repo: RepositoryRecord, ref: string): Promise<string> {
  if (/^[0-9a-f]{40}$/.test(ref) && (await tx.store.commit(ref))) return ref;
  const sha =
    (await tx.store.ref(repo.id, ref.startsWith('refs/') ? ref : `refs/heads/${ref}`)) ??
    (await tx.store.ref(repo.id, `refs/tags/${ref}`));
  if (!sha) throw new GitHubApiError(422, `No commit found for SHA: ${ref}`);
  return sha;
}

export async function getCommit(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const sha = await resolveRef(tx, repo, ref);
  const commit = await tx.commitOrFail(sha);
  const parent = commit.parents[0];
  const files = await fileEntries(tx, repo, parent ?? null, sha);
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  return {
    ...tx.shapes.commit(repo, commit),
    stats: { additions, deletions, total: additions + deletions },
    files,
  };
}

/** The `diff-entry` list between two commits (whole-file line counts, no patches). */
export async function fileEntries(
  tx: ForgeTransaction,
  repo: RepositoryRecord,
  from: string | null,
  to: string,
) {
  const changes = diffTrees(from ? await tx.filesOf(from) : new Map(), await tx.filesOf(to));
  const entries = [];
  for (const change of changes) {
    const lines = await tx.lineCounts(change.before, change.after);
    const sha = change.after ?? change.before!;
    const repoUrl = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}`;
    entries.push({
      sha,
      filename: change.filename,
      status: change.status,
      additions: lines.additions,
      deletions: lines.deletions,
      changes: lines.additions + lines.deletions,
      blob_url: `${tx.shapes.html}/${repo.owner}/${repo.name}/blob/${to}/${change.filename}`,
      raw_url: `${tx.shapes.html}/${repo.owner}/${repo.name}/raw/${to}/${change.filename}`,
      contents_url: `${repoUrl}/contents/${change.filename}?ref=${to}`,
    });
  }
  return entries;
}

// --- comparisons --------------------------------------------------------------------------------------

export async function compare(tx: ForgeTransaction, owner: string, name: string, basehead: string) {
  const repo = await tx.repository(owner, name);
  const split = basehead.indexOf('...');
  if (split < 0) throw GitHubApiError.notFound();
  const base = await resolveRef(tx, repo, basehead.slice(0, split)).catch(() => {
    throw GitHubApiError.notFound();
  });
  const head = await resolveRef(tx, repo, basehead.slice(split + 3)).catch(() => {
    throw GitHubApiError.notFound();
  });
  const mergeBaseSha = (await tx.mergeBase(base, head)) ?? base;
  const ahead = await tx.commitsBetween(base, head);
  const behind = await tx.commitsBetween(head, base);
  const status =
    ahead.length === 0 && behind.length === 0
      ? 'identical'
      : behind.length === 0
        ? 'ahead'
        : ahead.length === 0
          ? 'behind'
          : 'diverged';
  const repoUrl = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}`;
  const html = `${tx.shapes.html}/${repo.owner}/${repo.name}/compare/${basehead}`;
  const commits = [];
  for (const sha of ahead) commits.push(tx.shapes.commit(repo, await tx.commitOrFail(sha)));
  return {
    url: `${repoUrl}/compare/${basehead}`,
    html_url: html,
    permalink_url: `${tx.shapes.html}/${repo.owner}/${repo.name}/compare/${base}...${head}`,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    base_commit: tx.shapes.commit(repo, await tx.commitOrFail(base)),
    merge_base_commit: tx.shapes.commit(repo, await tx.commitOrFail(mergeBaseSha)),
    status,
    ahead_by: ahead.length,
    behind_by: behind.length,
    total_commits: ahead.length,
    commits,
    files: await fileEntries(tx, repo, mergeBaseSha, head),
  };
}
