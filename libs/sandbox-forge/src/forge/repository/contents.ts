import { isValidFilePath } from '../../git/git-objects';
import { GitHubApiError, optionalString, requiredString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import type { RepositoryRecord } from '../sandbox-records';
import { resolveRef } from './commits';

/** A repository's contents: reading a file or a directory, and committing one file (`PUT /contents`). */
type Body = Record<string, unknown>;

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
