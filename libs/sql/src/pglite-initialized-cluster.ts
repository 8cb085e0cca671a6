import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * A new PGlite database runs initdb inside its WASM heap: about 4.5 s, and the heap grows to some
 * 660 MB, which WASM memory never gives back while the database stays open. Loaded from a dump of
 * a cluster that initdb made before, the same empty database opens in about 0.5 s on a 250 MB heap.
 *
 * So the dump is made once per PGlite version, by a throwaway instance that is dropped at once (its
 * memory goes with it), and kept in the user's cache directory for later processes: test workers,
 * the next fresh data directory. A cache that cannot be read or written only costs that initdb.
 */
let installedVersion: string | null = null;

/** Read once: every open names the cache by it, and the installed package does not change. */
const pgliteVersion = (): string => (installedVersion ??= readPgliteVersion());

const readPgliteVersion = (): string => {
  // The package does not export its package.json: found beside its entry point.
  for (let dir = dirname(require.resolve('@electric-sql/pglite')); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
    } catch {
      // no package.json at this level
    }
  }
  return 'unknown';
};

/** `$XDG_CACHE_HOME/switchyard`, else `~/.cache/switchyard`: per user, so no one else can plant a dump. */
export const pgliteClusterCachePath = (env: NodeJS.ProcessEnv = process.env): string =>
  join(
    env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    'switchyard',
    `pglite-${pgliteVersion()}-cluster.tgz`,
  );

async function initializeCluster(): Promise<Blob> {
  const throwaway = new PGlite();
  try {
    await throwaway.waitReady;
    // 4.5 MB gzipped against 40 MB plain; gunzip adds about 0.15 s to a load.
    return await throwaway.dumpDataDir('gzip');
  } finally {
    await throwaway.close();
  }
}

/** The cache file is the dump's SHA-256 (hex) and then the dump: a damaged file reads as no cache. */
const DIGEST_LENGTH = 64;
const digestOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function cachedCluster(path: string): Promise<Blob | null> {
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch {
    return null;
  }
  const dump = file.subarray(DIGEST_LENGTH);
  return file.subarray(0, DIGEST_LENGTH).toString('latin1') === digestOf(dump) ? new Blob([dump]) : null;
}

async function keep(path: string, cluster: Blob): Promise<void> {
  // Written aside, then renamed: a process reading the cache never sees half a dump.
  const partial = `${path}.${process.pid}.partial`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const dump = new Uint8Array(await cluster.arrayBuffer());
    await writeFile(partial, Buffer.concat([Buffer.from(digestOf(dump), 'latin1'), dump]), { mode: 0o600 });
    await rename(partial, path);
  } catch {
    // A read-only home or a full disk: every process pays its own initdb, and no half file stays.
    await rm(partial, { force: true }).catch(() => undefined);
  }
}

/** Per cache path, so concurrent opens in one process share one read or one initdb. */
const inProcess = new Map<string, Promise<Blob>>();

/**
 * A dump of a freshly initialised cluster, for `new PGlite(dir, { loadDataDir })`. It matches a
 * PGlite made without options, as ours are (PgliteExecutor).
 */
export function initializedCluster(cachePath: string = pgliteClusterCachePath()): Promise<Blob> {
  let cluster = inProcess.get(cachePath);
  if (!cluster) {
    cluster = (async () => {
      const cached = await cachedCluster(cachePath);
      if (cached) return cached;
      const made = await initializeCluster();
      await keep(cachePath, made);
      return made;
    })();
    // A failed initdb is not remembered: the next open tries again.
    cluster.catch(() => inProcess.delete(cachePath));
    inProcess.set(cachePath, cluster);
  }
  return cluster;
}
