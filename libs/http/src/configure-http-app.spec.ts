import { Writable } from 'node:stream';
import { Body, Param, Query } from './validation/validated-params';
import {
  Controller,
  ForbiddenException,
  Get,
  Global,
  Module,
  Post,
  Req,
  Res,
  type INestApplication,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { DomainError, type DomainErrorKind } from '@switchyard/kernel';
import { EVENT_STORE, SQL_EXECUTOR } from '@switchyard/platform';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { configureHttpApp } from './configure-http-app';
import { createHttpAdapter } from './fastify/switchyard-fastify-adapter';
import { HealthModule } from './health/health.module';
import { READINESS_CONTRIBUTORS } from './health/readiness';
import { RefusedInputs } from './health/refused-inputs';
import { createLogger } from './logging/create-logger';
import { setLinkHeader } from './pagination/link-header';
import { PullNumberPipe } from './params/pull-number.pipe';
import type { RepositoryRef } from './params/repository-ref';
import { RepositoryRefParam } from './params/repository-ref.decorator';
import { MaxCodePoints } from './validation/decorators/code-point-length';
import { QueryArray, QueryInt } from './validation/decorators/query-transforms';

class PauseBody {
  @IsString()
  @MaxCodePoints(255)
  reason!: string;
}

class ListQuery {
  @IsOptional()
  @QueryArray()
  @QueryInt()
  @IsInt({ each: true })
  @Min(1, { each: true })
  pull_request?: number[];

  @IsOptional()
  @QueryArray()
  @IsString({ each: true })
  event_type?: string[];
}

@Controller('v1/test')
class SampleController {
  @Get('list')
  list(@Query() query: ListQuery) {
    return { pull_request: query.pull_request ?? null, event_type: query.event_type ?? null };
  }

  @Post('pause')
  pause(@Body() body: PauseBody) {
    return { paused: true, reason: body.reason, at: new Date('2026-05-01T00:00:00Z') };
  }

  @Get('domain/:kind')
  domain(@Param('kind') kind: string) {
    throw new DomainError(kind as DomainErrorKind, `refused: ${kind}`);
  }

  @Get('boom')
  boom() {
    throw new Error('database password is hunter2');
  }

  @Get('rate-limited-forbidden')
  forbidden(@Res({ passthrough: true }) reply: FastifyReply) {
    void reply
      .header('Retry-After', '5')
      .header('X-RateLimit-Remaining', '0')
      .header('X-RateLimit-Reset', '1');
    throw new ForbiddenException();
  }

  @Get('page')
  page(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    setLinkHeader(reply, request, { next: 'c2' });
    return { size: 0 };
  }
}

@Controller('v1/repos/:owner/:repository/pulls')
class PullController {
  @Get(':number')
  show(@RepositoryRefParam() repo: RepositoryRef, @Param('number', PullNumberPipe) number: bigint) {
    return { repository: repo.key, number: number.toString() };
  }
}

const health = { sqlFails: false };

@Global()
@Module({
  providers: [
    {
      provide: SQL_EXECUTOR,
      useValue: {
        query: async () => {
          if (health.sqlFails) throw new Error('connection refused');
          return { rows: [{ '?column?': 1 }], rowCount: 1 };
        },
      },
    },
    { provide: EVENT_STORE, useValue: new InMemoryEventStore() },
  ],
  exports: [SQL_EXECUTOR, EVENT_STORE],
})
class FakeStorageModule {}

async function startApp(trustProxy: boolean, logLines: string[] = []) {
  const logger = createLogger(
    { logLevel: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  const moduleRef = await Test.createTestingModule({
    imports: [
      FakeStorageModule,
      HealthModule.forRoot({
        contributors: {
          provide: READINESS_CONTRIBUTORS,
          useValue: [{ name: 'projections', check: async () => undefined }],
        },
      }),
    ],
    controllers: [SampleController, PullController],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createHttpAdapter({ trustProxy }, logger),
    {
      logger: false,
    },
  );
  configureHttpApp(app, { version: '9.9.9' });
  await app.init();
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  await fastify.ready();
  return { app: app as INestApplication, fastify };
}

describe('configureHttpApp over Fastify', () => {
  let app: INestApplication;
  let fastify: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    ({ app, fastify } = await startApp(false, logLines));
  });
  afterAll(() => app.close());

  it('answers unmatched routes with 404 {"detail":"Not Found"}', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/v1/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('answers malformed JSON with FastAPI json_invalid and the offset', async () => {
    const response = await fastify.inject({
      method: 'POST',
      url: '/v1/test/pause',
      headers: { 'content-type': 'application/json' },
      payload: '{"reason": }',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 11],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting value' },
        },
      ],
    });
  });

  it('refuses a body nested beyond the depth limit with 400, even when it is malformed', async () => {
    for (const payload of [`{"reason":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, '['.repeat(100_000)]) {
      const response = await fastify.inject({
        method: 'POST',
        url: '/v1/test/pause',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        detail: 'JSON body nests arrays and objects deeper than 64 levels',
      });
    }
  });

  it('refuses a nested "constructor" key with 400 rather than letting class-transformer trip on it', async () => {
    const response = await fastify.inject({
      method: 'POST',
      url: '/v1/test/pause',
      headers: { 'content-type': 'application/json' },
      payload: '{"reason":"deploy","extra":{"\\u0063onstructor":"x"}}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'JSON body uses the reserved key "constructor"' });
  });

  it('treats an empty JSON body as missing fields', async () => {
    const response = await fastify.inject({
      method: 'POST',
      url: '/v1/test/pause',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} }],
    });
  });

  it('validates bodies and serialises dates with Z', async () => {
    const ok = await fastify.inject({ method: 'POST', url: '/v1/test/pause', payload: { reason: 'deploy' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ paused: true, reason: 'deploy', at: '2026-05-01T00:00:00.000Z' });
    const tooLong = await fastify.inject({
      method: 'POST',
      url: '/v1/test/pause',
      payload: { reason: 'x'.repeat(256) },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'reason'] });
  });

  it.each([
    ['bad_request', 400],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['unprocessable', 422],
  ])('maps DomainError %s to %i {"detail": message}', async (kind, status) => {
    const response = await fastify.inject({ method: 'GET', url: `/v1/test/domain/${kind}` });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ detail: `refused: ${kind}` });
  });

  it('hides unexpected errors and logs them with the request id', async () => {
    const response = await fastify.inject({
      method: 'GET',
      url: '/v1/test/boom',
      headers: { 'x-request-id': 'trace-boom-1' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Internal Server Error' });
    expect(response.body).not.toContain('hunter2');
    const logged = logLines.map((line) => JSON.parse(line)).find((line) => line.err);
    expect(logged).toMatchObject({ level: 50, reqId: 'trace-boom-1', requestId: 'trace-boom-1' });
  });

  it('never sends retry or rate-limit headers with a 403', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/v1/test/rate-limited-forbidden' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: 'Forbidden' });
    expect(Object.keys(response.headers).filter((name) => /retry-after|x-ratelimit/i.test(name))).toEqual([]);
  });

  it('echoes a sane x-request-id and generates one otherwise', async () => {
    const echoed = await fastify.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await fastify.inject({
      method: 'GET',
      url: '/v1/nothing',
      headers: { 'x-request-id': 'bad id!' },
    });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads repeated query keys as arrays, and a single one as a one-item array', async () => {
    const response = await fastify.inject({
      method: 'GET',
      url: '/v1/test/list?pull_request=3&event_type=a+b&pull_request=1',
    });
    expect(response.json()).toEqual({ pull_request: [3, 1], event_type: ['a b'] });
    const single = await fastify.inject({
      method: 'GET',
      url: '/v1/test/list?event_type=action.queue.leave',
    });
    expect(single.json()).toEqual({ pull_request: null, event_type: ['action.queue.leave'] });
    const bad = await fastify.inject({ method: 'GET', url: '/v1/test/list?pull_request=1&pull_request=x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toEqual([
      {
        type: 'int_parsing',
        loc: ['query', 'pull_request', 1],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'x',
      },
    ]);
  });

  it('parses repository and pull number path parameters', async () => {
    const ok = await fastify.inject({
      method: 'GET',
      url: '/v1/repos/Owner/Repo.js/pulls/9223372036854775807',
    });
    expect(ok.json()).toEqual({ repository: 'owner/repo.js', number: '9223372036854775807' });
    const bad = await fastify.inject({
      method: 'GET',
      url: '/v1/repos/Owner/Repo/pulls/9223372036854775808',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0]).toMatchObject({ type: 'less_than_equal', loc: ['path', 'number'] });
  });

  it('builds Link headers from the Host header, ignoring X-Forwarded-* when the proxy is not trusted', async () => {
    const response = await fastify.inject({
      method: 'GET',
      url: '/v1/test/page?a=1&a=2',
      headers: {
        host: 'switchyard.local:3000',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      },
    });
    expect(response.headers.link).toBe(
      '<http://switchyard.local:3000/v1/test/page?a=1&a=2&cursor=c2>; rel="next"',
    );
  });

  it('serves liveness, and readiness with the extra contributors and the count of refused inputs', async () => {
    expect((await fastify.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await fastify.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.map((check: { name: string }) => check.name)).toEqual([
      'read_model_database',
      'event_store',
      'projections',
      'refused input',
    ]);
    app.get(RefusedInputs).count('webhook_deliveries');
    const counted = await fastify.inject({ method: 'GET', url: '/readyz' });
    expect(counted.json().checks.at(-1)).toEqual({
      name: 'refused input',
      ok: true,
      details: { webhook_deliveries: 1 },
    });
  });

  it('answers 503 {"detail"} when the database does not answer', async () => {
    health.sqlFails = true;
    try {
      const response = await fastify.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json().detail).toBe('Not ready: read_model_database: connection refused');
    } finally {
      health.sqlFails = false;
    }
  });

  it('serves the OpenAPI document with the four bearer schemes', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.info).toMatchObject({ title: 'Switchyard', version: '9.9.9' });
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'AdminApplicationKey',
      'CIApplicationKey',
      'HostTokenBearerAuth',
      'ServiceTokenBearerAuth',
    ]);
    expect(document.components.securitySchemes.AdminApplicationKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.paths['/v1/repos/{owner}/{repository}/pulls/{number}']).toBeDefined();
    expect(document.paths['/healthz']).toBeUndefined();
  });
});

describe('configureHttpApp behind a trusted proxy', () => {
  it('builds Link headers from X-Forwarded-Proto and X-Forwarded-Host', async () => {
    const { app, fastify } = await startApp(true);
    try {
      const response = await fastify.inject({
        method: 'GET',
        url: '/v1/test/page?cursor=c1&per_page=5',
        headers: {
          host: 'internal:3000',
          'x-forwarded-host': 'api.example.com',
          'x-forwarded-proto': 'https',
        },
      });
      expect(response.headers.link).toBe(
        '<https://api.example.com/v1/test/page?cursor=c2&per_page=5>; rel="next"',
      );
    } finally {
      await app.close();
    }
  });
});
