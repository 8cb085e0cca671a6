import { blobObject, commitObject, EMPTY_TREE_SHA, treeObject, treeObjectsOf } from './git-objects';
import { commitsBetween, diffTrees, mergeBase, mergeTrees } from './three-way-merge';

describe('git objects', () => {
  it('hashes blobs, trees and commits exactly as git does', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(blobObject(Buffer.from('hello\n')).sha).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(treeObject([]).sha).toBe(EMPTY_TREE_SHA);
    // `git mktree` of one file `hello.txt` holding 'hello\n'
    const { root } = treeObjectsOf(new Map([['hello.txt', 'ce013625030ba8dba906f756967f9e9ca394464a']]));
    expect(root).toBe('aaa96ced2d9a1c8e72c56b253a0e2fe78393feb7');
    const commit = commitObject({
      tree: root,
      parents: [],
      author: { name: 'A', email: 'a@example.com', date: '2020-01-01T00:00:00Z' },
      committer: { name: 'A', email: 'a@example.com', date: '2020-01-01T00:00:00Z' },
      message: 'first\n',
    });
    expect(commit.sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('nests folders into trees', () => {
    const blob = blobObject(Buffer.from('x')).sha;
    const { trees } = treeObjectsOf(
      new Map([
        ['a/b/c.txt', blob],
        ['a/d.txt', blob],
        ['e.txt', blob],
      ]),
    );
    expect(trees).toHaveLength(3);
    expect(trees.at(-1)!.entries.map((entry) => entry.name)).toEqual(['a', 'e.txt']);
  });
});

describe('three-way merge', () => {
  const base = new Map([
    ['a', '1'],
    ['b', '1'],
    ['c', '1'],
  ]);

  it('takes each side that changed a file', () => {
    const ours = new Map([
      ['a', '2'],
      ['b', '1'],
      ['c', '1'],
    ]);
    const theirs = new Map([
      ['a', '1'],
      ['b', '1'],
      ['c', '1'],
      ['d', '1'],
    ]);
    expect(mergeTrees(base, ours, theirs)).toEqual({
      clean: true,
      tree: new Map([
        ['a', '2'],
        ['b', '1'],
        ['c', '1'],
        ['d', '1'],
      ]),
    });
  });

  it('conflicts when both sides change a file differently, or one edits what the other deletes', () => {
    const ours = new Map([
      ['a', '2'],
      ['b', '1'],
    ]);
    const theirs = new Map([
      ['a', '3'],
      ['b', '1'],
      ['c', '2'],
    ]);
    expect(mergeTrees(base, ours, theirs)).toEqual({ clean: false, conflicts: ['a', 'c'] });
  });

  it('accepts the same change made on both sides', () => {
    const same = new Map([
      ['a', '9'],
      ['b', '1'],
      ['c', '1'],
    ]);
    expect(mergeTrees(base, same, same)).toEqual({ clean: true, tree: same });
  });

  it('lists added, removed and modified files', () => {
    expect(
      diffTrees(
        base,
        new Map([
          ['a', '2'],
          ['b', '1'],
          ['z', '1'],
        ]),
      ).map((c) => [c.filename, c.status]),
    ).toEqual([
      ['a', 'modified'],
      ['c', 'removed'],
      ['z', 'added'],
    ]);
  });

  it('finds the merge base and the commits a branch adds', async () => {
    //   r - m1 - m2        (main)
    //        \
    //         f1 - f2      (feature)
    const parents: Record<string, string[]> = { r: [], m1: ['r'], m2: ['m1'], f1: ['m1'], f2: ['f1'] };
    const parentsOf = async (sha: string) => parents[sha];
    expect(await mergeBase('m2', 'f2', parentsOf)).toBe('m1');
    expect(await commitsBetween('m2', 'f2', parentsOf)).toEqual(['f1', 'f2']);
  });

  it('picks the nearest common ancestor after the base was merged into the branch', async () => {
    //   r - m1 - m2 ------- x     (main: x merges u)
    //         \        \   /
    //          f1 ----- u         (feature: u merges m2)
    const parents: Record<string, string[]> = {
      r: [],
      m1: ['r'],
      m2: ['m1'],
      f1: ['m1'],
      u: ['f1', 'm2'],
      x: ['m2', 'u'],
    };
    const parentsOf = async (sha: string) => parents[sha];
    expect(await mergeBase('u', 'm2', parentsOf)).toBe('m2');
    expect(await mergeBase('x', 'u', parentsOf)).toBe('u');
    expect(await mergeBase('f1', 'm2', parentsOf)).toBe('m1');
  });
});
