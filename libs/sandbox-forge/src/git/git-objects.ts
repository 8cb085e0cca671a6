import { createHash } from 'node:crypto';

/**
 * Git's own object model, so the sandbox's shas are the shas git would compute for the same
 * content: `sha1("<kind> <size>\0" + body)` over blobs, trees and commits.
 */
export type FlatTree = ReadonlyMap<string, string>;

export interface TreeEntry {
  readonly mode: '100644' | '040000';
  readonly type: 'blob' | 'tree';
  readonly name: string;
  readonly sha: string;
}

export interface GitSignature {
  readonly name: string;
  readonly email: string;
  /** RFC 3339, UTC. */
  readonly date: string;
}

export interface CommitObject {
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: GitSignature;
  readonly committer: GitSignature;
  readonly message: string;
}

export type GitObject =
  | { readonly sha: string; readonly kind: 'blob'; readonly content: Buffer }
  | { readonly sha: string; readonly kind: 'tree'; readonly entries: readonly TreeEntry[] }
  | { readonly sha: string; readonly kind: 'commit'; readonly commit: CommitObject };

export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export function hashObject(kind: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1')
    .update(Buffer.from(`${kind} ${body.length}\0`))
    .update(body)
    .digest('hex');
}

export function blobObject(content: Buffer): GitObject & { kind: 'blob' } {
  return { sha: hashObject('blob', content), kind: 'blob', content };
}

export function treeObject(entries: readonly TreeEntry[]): GitObject & { kind: 'tree' } {
  // Git orders entries by name, comparing a tree's name as if it ended with '/'.
  const key = (entry: TreeEntry) => (entry.type === 'tree' ? `${entry.name}/` : entry.name);
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(key(a)), Buffer.from(key(b))));
  const body = Buffer.concat(
    sorted.map((entry) =>
      Buffer.concat([
        Buffer.from(`${entry.mode === '040000' ? '40000' : entry.mode} ${entry.name}\0`),
        Buffer.from(entry.sha, 'hex'),
      ]),
    ),
  );
  return { sha: hashObject('tree', body), kind: 'tree', entries: sorted };
}

export function commitObject(commit: CommitObject): GitObject & { kind: 'commit' } {
  const signature = (who: GitSignature) =>
    `${who.name} <${who.email}> ${Math.floor(Date.parse(who.date) / 1000)} +0000`;
  const lines = [
    `tree ${commit.tree}`,
    ...commit.parents.map((parent) => `parent ${parent}`),
    `author ${signature(commit.author)}`,
    `committer ${signature(commit.committer)}`,
    '',
    commit.message,
  ];
  return { sha: hashObject('commit', Buffer.from(lines.join('\n'))), kind: 'commit', commit };
}

/**
 * Builds the nested tree objects of a flat `path → blob sha` map. Returns every tree object (root
 * last) so the caller can store them all.
 */
export function treeObjectsOf(files: FlatTree): { root: string; trees: Array<GitObject & { kind: 'tree' }> } {
  const trees: Array<GitObject & { kind: 'tree' }> = [];
  const build = (prefix: string, paths: string[]): string => {
    const blobs: TreeEntry[] = [];
    const folders = new Map<string, string[]>();
    for (const path of paths) {
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) blobs.push({ mode: '100644', type: 'blob', name: rest, sha: files.get(path)! });
      else {
        const folder = rest.slice(0, slash);
        folders.set(folder, [...(folders.get(folder) ?? []), path]);
      }
    }
    const subtrees = [...folders].map(([name, inside]): TreeEntry => ({
      mode: '040000',
      type: 'tree',
      name,
      sha: build(`${prefix}${name}/`, inside),
    }));
    const tree = treeObject([...blobs, ...subtrees]);
    trees.push(tree);
    return tree.sha;
  };
  const root = build('', [...files.keys()]);
  return { root, trees };
}

/** A file path as GitHub accepts it: relative, no empty, `.` or `..` segments. */
export function isValidFilePath(path: string): boolean {
  if (path.length === 0 || path.length > 4096) return false;
  return path
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !segment.includes('\0'));
}
