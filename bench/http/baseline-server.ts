import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { adminKeyCheck } from './admin-key-check';

/**
 * bench:http's bare Fastify peer, run as its own process: no Nest, no guard, no pipes, no
 * logging, no event store. Each route makes the same header check as ours (the same Bearer
 * parsing and SHA-256 digest, then a lookup in memory) and answers the same JSON; the PUT makes
 * one INSERT and one SELECT on the same kind of database, which is the least a durable write that
 * reads its own result back can cost.
 */
const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const authorized = adminKeyCheck(env('BASELINE_ADMIN_KEY'), 'acme');
const applicationJson = env('BASELINE_APPLICATION_JSON');
const pauseJson = env('BASELINE_PAUSE_JSON');

interface Database {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

async function openDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) return new Pool({ connectionString: url, max: 10 });
  const db = new PGlite(env('BASELINE_PGLITE_DIR'));
  await db.waitReady;
  return { query: (sql, params) => db.query<Record<string, unknown>>(sql, params) };
}

async function main(): Promise<void> {
  const db = await openDatabase();
  await db.query(`CREATE TABLE IF NOT EXISTS bench_http_pause_events (
    position bigserial PRIMARY KEY,
    repository text NOT NULL,
    reason text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
  )`);
  await db.query(
    'CREATE INDEX IF NOT EXISTS bench_http_pause_events_repository ON bench_http_pause_events (repository, position)',
  );

  const app = Fastify({ logger: false });
  const forbidden = '{"detail":"Forbidden"}';
  app.get('/ready', async () => ({ ok: true }));
  app.get('/v1/application', (request, reply) => {
    if (!authorized(request.headers)) return reply.code(403).type('application/json').send(forbidden);
    return reply.type('application/json').send(applicationJson);
  });
  app.get<{ Params: { owner: string } }>(
    '/v1/repos/:owner/:repository/merge-queue/pause',
    (request, reply) => {
      if (!authorized(request.headers, request.params.owner)) {
        return reply.code(403).type('application/json').send(forbidden);
      }
      return reply.type('application/json').send(pauseJson);
    },
  );
  app.put<{ Params: { owner: string; repository: string }; Body: { reason?: unknown } }>(
    '/v1/repos/:owner/:repository/merge-queue/pause',
    async (request, reply) => {
      if (!authorized(request.headers, request.params.owner)) {
        return reply.code(403).type('application/json').send(forbidden);
      }
      const reason = request.body?.reason;
      if (typeof reason !== 'string') return reply.code(422).send({ detail: 'reason is required' });
      const repository = `${request.params.owner}/${request.params.repository}`;
      await db.query('INSERT INTO bench_http_pause_events (repository, reason) VALUES ($1, $2)', [
        repository,
        reason,
      ]);
      const { rows } = await db.query(
        `SELECT reason, at FROM bench_http_pause_events WHERE repository = $1 ORDER BY position DESC LIMIT 1`,
        [repository],
      );
      const row = rows[0]!;
      return { paused: true, reason: row.reason, paused_at: new Date(row.at as string).toISOString() };
    },
  );
  await app.listen({ port: Number(env('PORT')), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main().catch((error: unknown) => {
  process.stderr.write(`baseline server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
