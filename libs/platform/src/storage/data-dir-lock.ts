import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite is one process's database: two processes on one data directory would corrupt it. A pid file
 * makes the second one stop with a clear message instead.
 */
export class DataDirLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded store at ${dataDir} is in use by process ${pid}. Stop it first, ` +
        'or run every process against PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DataDirLockedError';
  }
}

export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'switchyard.pid');
  const holder = readHolder(file);
  if (holder !== null && holder !== process.pid && isAlive(holder))
    throw new DataDirLockedError(dataDir, holder);
  writeFileSync(file, String(process.pid));
  return () => {
    if (readHolder(file) === process.pid) rmSync(file, { force: true });
  };
}

function readHolder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
