import { diffTrees } from '../git/three-way-merge';
import { isValidFilePath } from '../git/git-objects';
import { GitHubApiError, optionalBoolean, optionalString, requiredString } from './github-api-error';
import type { ForgeTransaction } from './forge-transaction';
import type { RepositoryRecord } from './sandbox-records';

/** Repositories, branches, refs, commits, contents, comparisons and merges: GitHub's git surface. */
type Body = Record<string, unknown>;

export async function getRepository(tx: ForgeTransaction, owner: string, name: string) {
  return tx.repositoryJson(await tx.repository(owner, name));
}

export async function listBranches(tx: ForgeTransaction, owner: string, name: string) {
  const repo = await tx.repository(owner, name);
  return (await tx.store.refs(repo.id, 'refs/heads/')).map(({ ref, sha }) => ({
    name: ref.slice('refs/heads/'.length),
    commit: { sha, url: `${tx.shapes.api}/repos/${repo.owner}/${repo.name}/commits/${sha}` },
    protected: false,
  }));
}

export async function getBranch(tx: ForgeTransaction, owner: string, name: string, branch: string) {
  const repo = await tx.repository(owner, name);
  const sha = await tx.branchHeadOrFail(repo, branch);
  const url = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}/branches/${branch}`;
  return {
    name: branch,
    commit: tx.shapes.commit(repo, await tx.commitOrFail(sha)),
    _links: { html: `${tx.shapes.html}/${repo.owner}/${repo.name}/tree/${branch}`, self: url },
    protected: false,
    protection: {
      enabled: false,
      required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] },
    },
    protection_url: `${url}/protection`,
  };
}

const fullRef = (ref: string) => (ref.startsWith('refs/') ? ref : `refs/${ref}`);

/** git's rules for ref names (check-ref-format), and GitHub's 255 characters. */
const validRefName = (ref: string) =>
  ref.length <= 255 &&
  // eslint-disable-next-line no-control-regex -- git refuses control characters in ref names.
  !/[\u0000-\u001f\u007f]/.test(ref) &&
  /^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(ref) &&
  !ref.includes('..') &&
  !ref.endsWith('/') &&
  !ref.endsWith('.lock');

export async function getRef(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const sha = await tx.store.ref(repo.id, fullRef(ref));
  if (!sha) throw GitHubApiError.notFound();
  return tx.shapes.ref(repo, fullRef(ref), sha);
}

export async function matchingRefs(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  return (await tx.store.refs(repo.id, fullRef(ref))).map((each) => tx.shapes.ref(repo, each.ref, each.sha));
}

export async function createRef(tx: ForgeTransaction, owner: string, name: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const ref = requiredString(body, 'ref');
  const sha = requiredString(body, 'sha');
  if (!validRefName(ref)) throw GitHubApiError.unprocessable(`${ref} is not a valid ref name.`);
  if (await tx.store.ref(repo.id, ref)) throw GitHubApiError.unprocessable('Reference already exists');
  await tx.commitOrFail(sha);
  await tx.moveRef(repo, ref, sha);
  return tx.shapes.ref(repo, ref, sha);
}

export async function updateRef(tx: ForgeTransaction, owner: string, name: string, ref: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const target = fullRef(ref);
  const sha = requiredString(body, 'sha');
  const force = optionalBoolean(body, 'force') ?? false;
  const current = await tx.store.ref(repo.id, target);
  if (!current) throw GitHubApiError.unprocessable('Reference does not exist');
  await tx.commitOrFail(sha);
  if (!force && !(await tx.isAncestor(current, sha)))
    throw GitHubApiError.unprocessable('Update is not a fast forward');
  await tx.moveRef(repo, target, sha, !(await tx.isAncestor(current, sha)));
  return tx.shapes.ref(repo, target, sha);
}

export async function deleteRef(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const target = fullRef(ref);
  if (!(await tx.store.ref(repo.id, target))) throw GitHubApiError.unprocessable('Reference does not exist');
  await tx.moveRef(repo, target, null);
}

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

// --- contents ----------------------------------------------------------------------------------------

async function contentFile(
  tx: ForgeTransaction,
  repo: RepositoryRecord,
  path: string,
  blobSha: string,
  withContent: boolean,
) {
  const repoUrl = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}`;
  const url = `${repoUrl}/contents/${path}`;
  const html = `${tx.shapes.html}/${repo.owner}/${repo.name}/blob/${repo.defaultBranch}/${path}`;
  const git = `${repoUrl}/git/blobs/${blobSha}`;
  const content = (await tx.store.blob(blobSha)) ?? Buffer.alloc(0);
  return {
    type: 'file' as const,
    name: path.split('/').pop()!,
    path,
    sha: blobSha,
    size: content.length,
    url,
    html_url: html,
    git_url: git,
    download_url: `${tx.shapes.html}/${repo.owner}/${repo.name}/raw/${repo.defaultBranch}/${path}`,
    _links: { self: url, git, html },
    ...(withContent ? { encoding: 'base64', content: content.toString('base64') } : {}),
  };
}

export async function getContents(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  path: string,
  ref?: string,
) {
  const repo = await tx.repository(owner, name);
  const sha = await resolveRef(tx, repo, ref ?? repo.defaultBranch).catch(() => {
    throw GitHubApiError.notFound();
  });
  const files = await tx.filesOf(sha);
  const clean = path.replace(/^\/+|\/+$/g, '');
  const blob = files.get(clean);
  if (blob) return contentFile(tx, repo, clean, blob, true);
  const prefix = clean === '' ? '' : `${clean}/`;
  const children = new Map<string, { type: 'file' | 'dir'; sha: string }>();
  for (const [file, fileSha] of files) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) children.set(rest, { type: 'file', sha: fileSha });
    else children.set(rest.slice(0, slash), { type: 'dir', sha: '' });
  }
  if (children.size === 0) throw GitHubApiError.notFound();
  const listing = [];
  for (const [child, entry] of [...children].sort(([a], [b]) => a.localeCompare(b))) {
    const childPath = `${prefix}${child}`;
    if (entry.type === 'file') listing.push(await contentFile(tx, repo, childPath, entry.sha, false));
    else {
      const repoUrl = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}`;
      const url = `${repoUrl}/contents/${childPath}`;
      const html = `${tx.shapes.html}/${repo.owner}/${repo.name}/tree/${repo.defaultBranch}/${childPath}`;
      listing.push({
        type: 'dir',
        name: child,
        path: childPath,
        sha: '',
        size: 0,
        url,
        html_url: html,
        git_url: null,
        download_url: null,
        _links: { self: url, git: null, html },
      });
    }
  }
  return listing;
}

/** `PUT /contents/{path}`: one commit on a branch (the default one unless named) changing one file. */
export async function putContents(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  path: string,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const message = requiredString(body, 'message');
  const content = requiredString(body, 'content');
  const branch = optionalString(body, 'branch') ?? repo.defaultBranch;
  const expectedSha = optionalString(body, 'sha');
  if (!isValidFilePath(path)) throw GitHubApiError.unprocessable('path is invalid');
  if (!/^[A-Za-z0-9+/=\s]*$/.test(content)) throw GitHubApiError.unprocessable('content is not valid Base64');
  const head = await tx.branchHead(repo, branch);
  if (!head) throw new GitHubApiError(404, `Branch ${branch} not found`);
  const files = await tx.filesOf(head);
  const existing = files.get(path);
  if (existing && expectedSha !== existing)
    throw GitHubApiError.conflict(`${path} does not match ${expectedSha ?? '""'}`);
  if (!existing && expectedSha) throw GitHubApiError.conflict(`${path} does not match ${expectedSha}`);
  const blob = await tx.writeBlob(Buffer.from(content, 'base64'));
  const next = new Map(files);
  next.set(path, blob);
  const sha = await tx.writeCommit(next, [head], message);
  await tx.moveRef(repo, `refs/heads/${branch}`, sha);
  const commit = await tx.commitOrFail(sha);
  return {
    content: await contentFile(tx, repo, path, blob, false),
    commit: tx.shapes.gitCommit(repo, commit),
  };
}

// --- compare and merges --------------------------------------------------------------------------------

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
