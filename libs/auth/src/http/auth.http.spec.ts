import {
  Controller,
  Get,
  Global,
  Module,
  Put,
  type DynamicModule,
  type INestApplication,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { SqlExecutor } from '@switchyard/sql';
import {
  Body,
  configureHttpApp,
  createHttpAdapter,
  createLogger,
  type RepositoryRef,
  RepositoryRefParam,
} from '@switchyard/http';
import {
  APP_CONFIG,
  CLOCK,
  COMMAND_SERVICE,
  EVENT_STORE,
  READ_MODEL_FRESHNESS,
  SQL_EXECUTOR,
} from '@switchyard/platform';
import { testDatabases } from '@switchyard/testing';
import { IsString } from 'class-validator';
import type { FastifyInstance } from 'fastify';
import { newAuthTestKit, openCredentialDatabase, type AuthTestKit } from '../../test/auth-test-kit';
import { ApplicationKeyService } from '../application/application-key.service';
import { ServiceTokenService } from '../application/service-token.service';
import { AuthModule } from '../auth.module';
import type { Principal } from '../principal';
import { Auth } from './auth.decorator';
import { CurrentPrincipal } from './current-principal.decorator';

class PauseBody {
  @IsString()
  reason!: string;
}

@Controller('v1/repos/:owner/:repository/merge-queue')
@Auth('STD')
class PauseController {
  @Put('pause')
  pause(
    @RepositoryRefParam() repo: RepositoryRef,
    @Body() body: PauseBody,
    @CurrentPrincipal() principal: Principal,
  ) {
    return { repository: repo.key, reason: body.reason, by: principal.actor };
  }
}

@Controller('v1/forgotten')
class ForgottenController {
  @Get()
  list() {
    return { secrets: 'everything' };
  }
}

const platformFor = (kit: AuthTestKit): DynamicModule => {
  @Global()
  @Module({})
  class FakePlatformModule {}
  const providers = [
    { provide: SQL_EXECUTOR, useValue: kit.sql },
    { provide: EVENT_STORE, useValue: kit.store },
    { provide: COMMAND_SERVICE, useValue: kit.deps.commands },
    { provide: READ_MODEL_FRESHNESS, useValue: kit.freshness },
    { provide: CLOCK, useValue: kit.clock },
    {
      provide: APP_CONFIG,
      useValue: { hostTokens: { ghp_alice: { user: { id: 501, login: 'alice' }, accounts: ['acme'] } } },
    },
  ];
  return { module: FakePlatformModule, providers, exports: providers.map((provider) => provider.provide) };
};

describe('authentication over HTTP', () => {
  let sql: SqlExecutor;
  let app: INestApplication;
  let fastify: FastifyInstance;
  let secrets: { admin: string; adminId: string; ci: string; ciId: string; token: string; revoked: string };

  beforeAll(async () => {
    sql = await openCredentialDatabase(testDatabases()[0]!);
    const kit = await newAuthTestKit(sql);
    const moduleRef = await Test.createTestingModule({
      imports: [platformFor(kit), AuthModule.forRoot()],
      controllers: [PauseController, ForgottenController],
    }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(
      createHttpAdapter({ trustProxy: false }, createLogger({ logLevel: 'silent' })),
      { logger: false },
    );
    configureHttpApp(app, { version: '0.0.0-test' });
    await app.init();
    fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    await fastify.ready();

    const keys = app.get(ApplicationKeyService);
    const tokens = app.get(ServiceTokenService);
    const admin = await keys.createApplicationKey({
      accountLogin: 'Acme',
      accountId: 123456,
      scope: 'admin',
      name: 'ops',
    });
    const ci = await keys.createApplicationKey({ accountLogin: 'acme', scope: 'ci', name: 'uploader' });
    const token = await tokens.issueServiceToken({ accountLogin: 'acme', ttlDays: 7 });
    const revoked = await keys.createApplicationKey({ accountLogin: 'acme', scope: 'admin' });
    await keys.revokeApplicationKey(revoked.id);
    secrets = {
      admin: admin.secret,
      adminId: admin.id,
      ci: ci.secret,
      ciId: ci.id,
      token: token.secret,
      revoked: revoked.secret,
    };
  });
  afterAll(async () => {
    await app.close();
    await sql.close();
  });

  const call = (method: 'GET' | 'PUT', url: string, bearer?: string, payload?: object) =>
    fastify.inject({ method, url, payload, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  const expectRefused = (response: Awaited<ReturnType<typeof call>>) => {
    expect(response.statusCode).toBe(403);
    expect(typeof response.json().detail).toBe('string');
    expect(Object.keys(response.headers).filter((name) => /retry-after|x-ratelimit/i.test(name))).toEqual([]);
  };

  it('GET /v1/application describes the calling admin key', async () => {
    const response = await call('GET', '/v1/application', secrets.admin);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: secrets.adminId,
      name: 'ops',
      scope: 'admin',
      account_scope: { id: 123456, login: 'Acme' },
    });
  });

  it('GET /v1/application accepts a CI key', async () => {
    const response = await call('GET', '/v1/application', secrets.ci);
    expect(response.json()).toMatchObject({
      id: secrets.ciId,
      scope: 'ci',
      account_scope: { login: 'acme' },
    });
  });

  it('GET /v1/application refuses tokens, revoked keys and anonymous callers', async () => {
    expectRefused(await call('GET', '/v1/application', secrets.token));
    expectRefused(await call('GET', '/v1/application', 'ghp_alice'));
    expectRefused(await call('GET', '/v1/application', secrets.revoked));
    expectRefused(await call('GET', '/v1/application'));
  });

  it('refuses a key on the very next request after this process revoked it', async () => {
    const keys = app.get(ApplicationKeyService);
    const key = await keys.createApplicationKey({ accountLogin: 'acme', scope: 'admin' });
    expect((await call('GET', '/v1/application', key.secret)).statusCode).toBe(200);
    await keys.revokeApplicationKey(key.id);
    expectRefused(await call('GET', '/v1/application', key.secret));
  });

  it('lets an admin key, a service token and a host token pause their own repository', async () => {
    for (const bearer of [secrets.admin, secrets.token, 'ghp_alice']) {
      const response = await call('PUT', '/v1/repos/ACME/widgets/merge-queue/pause', bearer, {
        reason: 'deploy',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ repository: 'acme/widgets', reason: 'deploy' });
    }
    const byAlice = await call('PUT', '/v1/repos/acme/widgets/merge-queue/pause', 'ghp_alice', {
      reason: 'x',
    });
    expect(byAlice.json().by).toEqual({ type: 'user', id: 501, name: 'alice' });
  });

  it('refuses a CI key on queue management, with no retry headers', async () => {
    expectRefused(await call('PUT', '/v1/repos/acme/widgets/merge-queue/pause', secrets.ci, { reason: 'x' }));
  });

  it("refuses another account's repository", async () => {
    expectRefused(
      await call('PUT', '/v1/repos/globex/widgets/merge-queue/pause', secrets.admin, { reason: 'x' }),
    );
  });

  it('refuses a route that declared no scheme, whatever the credential', async () => {
    expectRefused(await call('GET', '/v1/forgotten', secrets.admin));
  });

  it('authenticates before validating the body', async () => {
    expectRefused(await call('PUT', '/v1/repos/acme/widgets/merge-queue/pause', undefined, {}));
    const invalid = await call('PUT', '/v1/repos/acme/widgets/merge-queue/pause', secrets.admin, {});
    expect(invalid.statusCode).toBe(422);
  });

  it('documents the accepted schemes per operation in OpenAPI, served without auth', async () => {
    const response = await call('GET', '/v1/openapi.json');
    expect(response.statusCode).toBe(200);
    const operation = response.json().paths['/v1/application'].get;
    expect(operation.security).toEqual([{ AdminApplicationKey: [] }, { CIApplicationKey: [] }]);
    const pause = response.json().paths['/v1/repos/{owner}/{repository}/merge-queue/pause'].put;
    expect(pause.security).toEqual([
      { AdminApplicationKey: [] },
      { ServiceTokenBearerAuth: [] },
      { HostTokenBearerAuth: [] },
    ]);
  });
});
