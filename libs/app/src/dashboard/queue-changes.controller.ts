import { Controller, Get, Inject, type OnModuleDestroy, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, type Principal } from '@switchyard/auth';
import { RepositoryRefParam, type RepositoryRef } from '@switchyard/http';
import { queueStatusProjection, QueueStatusService } from '@switchyard/merge-queue/status';
import { READ_MODEL_FRESHNESS } from '@switchyard/platform';
import type { ReadModelFreshness } from '@switchyard/projection';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How long a burst of checkpoints is gathered into one message: a batch of events moves the
 * status read model several times in a few milliseconds, and one refetch covers them all.
 */
const COALESCE_MS = 100;
/** A comment line this often keeps proxies from closing a quiet stream; the page ignores it. */
const KEEP_ALIVE_MS = 25_000;

/**
 * The dashboard's live feed: one server-sent event each time the merge-queue status read model
 * commits a checkpoint (as this process learns of it: its own projection runner, or the
 * projector's checkpoint signal), so the page refetches the status API when, and only when,
 * there is something new. The route names the repository so the guard checks its account.
 */
@ApiExcludeController()
@Auth('STD')
@Controller('ui')
export class QueueChangesController implements OnModuleDestroy {
  private readonly open = new Set<() => void>();

  constructor(
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    private readonly status: QueueStatusService,
  ) {}

  /** The repositories of the caller's accounts that have a merge queue. */
  @Get('repositories')
  async repositories(@CurrentPrincipal() principal: Principal): Promise<{ repositories: string[] }> {
    return { repositories: await this.status.repositories(principal.accounts) };
  }

  @Get('events/:owner/:repository')
  changes(
    @RepositoryRefParam() _repository: RepositoryRef,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): void {
    const onAdvance = this.freshness.onAdvance?.bind(this.freshness);
    if (!onAdvance) throw new Error('This process cannot follow the read models’ checkpoints');
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and friends: pass each message on at once.
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 2000\n\n');

    let pending: NodeJS.Timeout | null = null;
    const send = (position: string) => {
      pending = null;
      raw.write(`event: checkpoint\ndata: ${JSON.stringify({ position })}\n\n`);
    };
    const unsubscribe = onAdvance(queueStatusProjection.name, (position) => {
      if (pending === null) pending = setTimeout(() => send(String(position)), COALESCE_MS);
    });
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    const close = () => {
      if (!this.open.delete(close)) return;
      unsubscribe();
      clearInterval(keepAlive);
      if (pending !== null) clearTimeout(pending);
      raw.end();
    };
    this.open.add(close);
    request.raw.on('close', close);
  }

  /** Ends the open streams, so that closing the server does not wait on browsers. */
  onModuleDestroy(): void {
    for (const close of [...this.open]) close();
  }
}
