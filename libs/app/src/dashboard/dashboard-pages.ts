import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { sessionAuthorization } from '@switchyard/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` writes the dashboard (tools/build-ui.mjs): index.html and assets/. */
export function dashboardDirectory(from = __dirname): string {
  let directory = from;
  while (!existsSync(join(directory, 'package.json')) && dirname(directory) !== directory)
    directory = dirname(directory);
  // From dist/libs/app/src/dashboard and from libs/app/src/dashboard alike: the checkout's root.
  return join(directory, 'dist', 'ui');
}

export const SIGN_IN_PAGE = '/ui/sign-in';

/**
 * Serves the dashboard at /ui: its hashed assets (immutable, cached for a year) and, for every
 * other /ui path, its one page, which routes in the browser. A page asked for without a session
 * cookie redirects to sign-in (the page itself finds out when a cookie no longer signs in).
 * `/` redirects to /ui. When the dashboard was not built, /ui says so with a 503.
 */
export async function serveDashboard(
  app: NestFastifyApplication,
  directory = dashboardDirectory(),
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const indexFile = join(directory, 'index.html');
  const built = existsSync(indexFile);
  if (built)
    await app.register(fastifyStatic as never, {
      root: join(directory, 'assets'),
      prefix: '/ui/assets/',
      index: false,
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
    });
  const page = built ? readFileSync(indexFile) : null;
  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    if (path !== SIGN_IN_PAGE && !sessionAuthorization(request.headers.cookie))
      return reply.redirect(SIGN_IN_PAGE, 302);
    if (!page)
      return reply
        .code(503)
        .send({ detail: 'The dashboard is not built: run `npm run build` and restart the service' });
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header(
        'content-security-policy',
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
      )
      .send(page);
  };
  fastify.get('/', (_request, reply) => reply.redirect('/ui', 302));
  fastify.get('/ui', answer);
  fastify.get('/ui/*', answer);
}
