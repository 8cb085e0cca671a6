import type { SqlQueryable } from '@switchyard/sql';

const FORGE_ORIGIN_KEY = 'forge_origin';

/**
 * Records where the sandbox forge is served (the api's origin, or the URL set for it), so that the
 * other processes of a deployment (engine, projector) find it in the database they share, with no
 * setting of their own. Every api records itself when it listens; any of them serves the forge,
 * whose state lives in that database.
 */
export async function recordForgeOrigin(sql: SqlQueryable, origin: string): Promise<void> {
  await sql.query(
    `INSERT INTO sandbox_settings (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [FORGE_ORIGIN_KEY, origin.replace(/\/+$/, '')],
  );
}

/**
 * The recorded origin, read again at most every `refreshMs` (an api that restarts elsewhere is
 * found again); null while no api has recorded one, or before the forge's tables exist.
 */
export function recordedForgeOrigin(sql: SqlQueryable, refreshMs = 5000): () => Promise<string | null> {
  let cached: { origin: string | null; at: number } | null = null;
  return async () => {
    const now = Date.now();
    if (cached && cached.origin !== null && now - cached.at < refreshMs) return cached.origin;
    const origin = await sql
      .query<{ value: string }>('SELECT value FROM sandbox_settings WHERE key = $1', [FORGE_ORIGIN_KEY])
      .then(({ rows }) => rows[0]?.value ?? null)
      .catch(() => null);
    cached = { origin, at: now };
    return origin;
  };
}
