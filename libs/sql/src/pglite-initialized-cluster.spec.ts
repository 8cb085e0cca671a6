import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { initializedCluster, pgliteClusterCachePath } from './pglite-initialized-cluster';
import { PgliteExecutor } from './pglite-executor';

jest.setTimeout(60_000);

describe('a new PGlite database from an initialised cluster', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pglite-cluster-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is kept per user and per PGlite version', () => {
    expect(pgliteClusterCachePath({ XDG_CACHE_HOME: '/x/cache' })).toMatch(
      /^\/x\/cache\/switchyard\/pglite-\d+\.\d+\.\d+-cluster\.tgz$/,
    );
  });

  it('is made once, kept, and read back by the next process as the same dump', async () => {
    const cachePath = join(dir, 'once', 'cluster.tgz');
    const made = await initializedCluster(cachePath);
    expect(existsSync(cachePath)).toBe(true);
    expect(await initializedCluster(cachePath)).toBe(made);

    // A later process (the in-process memo does not know this path) reads the file.
    const copy = join(dir, 'copy.tgz');
    await writeFile(copy, await readFile(cachePath));
    const read = await initializedCluster(copy);
    expect(Buffer.from(await read.arrayBuffer())).toEqual(Buffer.from(await made.arrayBuffer()));
  });

  it('serves a working database, and a data directory that reopens without it', async () => {
    const dataDir = join(dir, 'data');
    const first = await PgliteExecutor.open(dataDir);
    await first.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    const { rows } = await first.query<{ db: string; user: string }>(
      'SELECT current_database() AS db, current_user AS "user"',
    );
    expect(rows).toEqual([{ db: 'postgres', user: 'postgres' }]);
    await first.close();

    // Opened by PGlite itself, as any tool would: the cluster is an ordinary one.
    const plain = new PGlite(dataDir);
    expect((await plain.query('SELECT n FROM kept')).rows).toEqual([{ n: 7 }]);
    await plain.close();
  });

  it('ignores a damaged cache file and replaces it', async () => {
    const cachePath = join(dir, 'damaged.tgz');
    const good = await readFile(join(dir, 'once', 'cluster.tgz'));
    const damaged = Buffer.from(good);
    damaged[damaged.length - 100] ^= 0xff;
    await writeFile(cachePath, damaged);
    const cluster = await initializedCluster(cachePath);
    const db = new PGlite({ loadDataDir: cluster });
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await db.close();
    expect((await readFile(cachePath)).equals(damaged)).toBe(false);
  });

  it('still opens when the cache cannot be written', async () => {
    // A file where the cache's folder should be: no one, root included, can write below it.
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, '');
    const cachePath = join(blocker, 'cluster.tgz');
    const cluster = await initializedCluster(cachePath);
    const db = new PGlite({ loadDataDir: cluster });
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await db.close();
    expect(existsSync(cachePath)).toBe(false);
  });
});
