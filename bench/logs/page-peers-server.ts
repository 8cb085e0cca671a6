import 'reflect-metadata';
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { buildLogQuery, ListLogs } from '@switchyard/activity-log';
import { setLinkHeader } from '@switchyard/http';
import { PgExecutor } from '@switchyard/sql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodeLogCursor } from '../../libs/activity-log/src/http/log-cursor';
import { adminKeyCheck } from '../http/admin-key-check';

/**
 * bench:logs' two peers for the first page, in one process of their own: the least that serving
 * the log's page over HTTP can cost, with and without Nest. Both make the same header check as
 * ours (Bearer parsing, SHA-256, a lookup in memory), run ours's very statement and row mapping
 * (ListLogs) on a node-postgres connection and answer the same JSON and Link header. Neither
 * validates the query, waits for freshness, goes through the query bus or writes an access line.
 *   GET /bare/v1/repos/:owner/:repository/logs: a Fastify route;
 *   GET /nest/v1/repos/:owner/:repository/logs: a Nest controller behind a guard, on Fastify.
 */
const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};

const PER_PAGE = 10;
const authorized = adminKeyCheck(env('PEER_ADMIN_KEY'), 'acme');

interface RepositoryParams {
  owner: string;
  repository: string;
}

let lists: ListLogs;

async function firstPage(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const { owner, repository } = request.params as RepositoryParams;
  const query = buildLogQuery(`${owner}/${repository}`, {}, new Date());
  const page = await lists.page(query, PER_PAGE);
  setLinkHeader(reply, request, {
    next: page.next && encodeLogCursor({ start: page.next, window: query.window }),
    prev: null,
  });
  return { size: page.events.length, per_page: PER_PAGE, events: page.events };
}

@Injectable()
class PeerKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return authorized(request.headers, (request.params as RepositoryParams).owner);
  }
}

@Controller('nest/v1/repos/:owner/:repository/logs')
@UseGuards(PeerKeyGuard)
class NestPeerController {
  @Get()
  list(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return firstPage(request, reply);
  }
}

@Module({ controllers: [NestPeerController], providers: [PeerKeyGuard] })
class NestPeerModule {}

async function main(): Promise<void> {
  const executor = await PgExecutor.open(env('DATABASE_URL'));
  lists = new ListLogs(executor);
  const adapter = new FastifyAdapter({ logger: false });
  const fastify = adapter.getInstance();
  fastify.get('/ready', async () => ({ ok: true }));
  fastify.get('/bare/v1/repos/:owner/:repository/logs', async (request, reply) => {
    if (!authorized(request.headers, (request.params as RepositoryParams).owner)) {
      return reply.code(403).type('application/json').send('{"detail":"Forbidden"}');
    }
    // Nest's adapter carries its own copy of Fastify's types; the objects are the same.
    return firstPage(request as unknown as FastifyRequest, reply as unknown as FastifyReply);
  });
  const app = await NestFactory.create<NestFastifyApplication>(NestPeerModule, adapter, { logger: false });
  await app.listen(Number(env('PORT')), '127.0.0.1');
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => executor.close())
        .then(() => process.exit(0)),
  );
}

void main().catch((error: unknown) => {
  process.stderr.write(`page peers failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
