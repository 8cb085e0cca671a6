import type { FlatTree } from './git-objects';

export type TreeMergeResult =
  | { readonly clean: true; readonly tree: FlatTree }
  | { readonly clean: false; readonly conflicts: readonly string[] };

/**
 * A file-level three-way merge: a file changed on one side only takes that side; changed the same
 * way on both takes it once; changed differently on both (including changed on one side and
 * deleted on the other) is a conflict. Content lines are not merged: two edits to one file conflict.
 */
export function mergeTrees(base: FlatTree, ours: FlatTree, theirs: FlatTree): TreeMergeResult {
  const merged = new Map<string, string>();
  const conflicts: string[] = [];
  const paths = new Set([...base.keys(), ...ours.keys(), ...theirs.keys()]);
  for (const path of [...paths].sort()) {
    const was = base.get(path);
    const mine = ours.get(path);
    const yours = theirs.get(path);
    let result: string | undefined;
    if (mine === yours) result = mine;
    else if (mine === was) result = yours;
    else if (yours === was) result = mine;
    else {
      conflicts.push(path);
      continue;
    }
    if (result !== undefined) merged.set(path, result);
  }
  return conflicts.length > 0 ? { clean: false, conflicts } : { clean: true, tree: merged };
}

export interface FileChange {
  readonly filename: string;
  readonly status: 'added' | 'removed' | 'modified';
  readonly before: string | undefined;
  readonly after: string | undefined;
}

/** The files that differ between two trees, by path. */
export function diffTrees(from: FlatTree, to: FlatTree): FileChange[] {
  const changes: FileChange[] = [];
  for (const filename of [...new Set([...from.keys(), ...to.keys()])].sort()) {
    const before = from.get(filename);
    const after = to.get(filename);
    if (before === after) continue;
    const status = before === undefined ? 'added' : after === undefined ? 'removed' : 'modified';
    changes.push({ filename, status, before, after });
  }
  return changes;
}

/** Every commit reachable from `from` (itself included), in breadth-first order. */
export async function ancestors(
  from: string,
  parentsOf: (sha: string) => Promise<readonly string[]>,
): Promise<string[]> {
  const seen = new Set<string>();
  const order: string[] = [];
  const queue = [from];
  while (queue.length > 0) {
    const sha = queue.shift()!;
    if (seen.has(sha)) continue;
    seen.add(sha);
    order.push(sha);
    queue.push(...(await parentsOf(sha)));
  }
  return order;
}

/**
 * The best common ancestor of two commits, as `git merge-base` picks it: a common ancestor that is
 * not itself an ancestor of another common ancestor (the nearest one found from `right` when
 * criss-cross merges leave several); `parentsOf` reads the commit graph.
 */
export async function mergeBase(
  left: string,
  right: string,
  parentsOf: (sha: string) => Promise<readonly string[]>,
): Promise<string | null> {
  const fromLeft = new Set(await ancestors(left, parentsOf));
  const common = (await ancestors(right, parentsOf)).filter((sha) => fromLeft.has(sha));
  const dominated = new Set<string>();
  for (const sha of common) {
    if (dominated.has(sha)) continue;
    for (const older of (await ancestors(sha, parentsOf)).slice(1)) dominated.add(older);
  }
  return common.find((sha) => !dominated.has(sha)) ?? null;
}

/** Commits reachable from `head` and not from `base`, oldest first (what a pull request adds). */
export async function commitsBetween(
  base: string,
  head: string,
  parentsOf: (sha: string) => Promise<readonly string[]>,
): Promise<string[]> {
  const excluded = new Set<string>();
  const walk = [base];
  while (walk.length > 0) {
    const sha = walk.pop()!;
    if (excluded.has(sha)) continue;
    excluded.add(sha);
    walk.push(...(await parentsOf(sha)));
  }
  const included: string[] = [];
  const seen = new Set<string>();
  const next = [head];
  while (next.length > 0) {
    const sha = next.pop()!;
    if (seen.has(sha) || excluded.has(sha)) continue;
    seen.add(sha);
    included.push(sha);
    next.push(...(await parentsOf(sha)));
  }
  return included.reverse();
}
