import { Controller, ForbiddenException, Get, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Public } from '@switchyard/http';
import { FixedClock } from '@switchyard/kernel';
import { CredentialResolver, type CredentialLookup } from '../application/credential-resolver';
import { REFUSAL } from '../application/request-authorization';
import { StaticTokenVerifier } from '../host-token/static-token-verifier';
import type { CredentialRecord } from '../projection/credential-record';
import { hashSecret } from '../secrets/secrets';
import { Auth } from './auth.decorator';
import { AuthGuard, UNDECLARED_ROUTE_DETAIL } from './auth.guard';
import type { AuthenticatedRequest } from './authenticated-request';

@Controller()
class Routes {
  @Get() @Auth('STD') std() {}
  @Get() @Auth('APP') app() {}
  @Get() @Auth('QUAR') quar() {}
  @Get() @Auth(['ci_key']) ciOnly() {}
  @Get() @Public() open() {}
  @Get() undeclared() {}
}

@Public()
@Controller()
class PublicController {
  @Get() @Auth('STD') guarded() {}
  @Get() inherited() {}
}

@Auth('STD')
@Controller()
class StdController {
  @Get() @Public() probe() {}
  @Get() inherited() {}
}

const clock = new FixedClock(new Date('2026-05-01T10:00:00Z'));
const keyRecord = (overrides: Partial<CredentialRecord>): CredentialRecord => ({
  kind: 'application_key',
  id: '6f9d3c1e-2b4a-4c8e-9f10-1a2b3c4d5e6f',
  name: 'key',
  scope: 'admin',
  account: { id: 7, login: 'Acme' },
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: null,
  revoked: false,
  revokedAt: null,
  ...overrides,
});
const stored: Record<string, CredentialRecord> = {
  sy_admin_acme: keyRecord({}),
  sy_ci_acme: keyRecord({ scope: 'ci', id: '11111111-2222-4333-8444-555555555555', name: 'ci' }),
  sy_admin_revoked: keyRecord({ revoked: true, revokedAt: new Date('2026-04-01T00:00:00Z') }),
  syt_acme: keyRecord({ kind: 'service_token', scope: null, name: 'grafana' }),
  syt_expired: keyRecord({ kind: 'service_token', scope: null, expiresAt: new Date('2026-05-01T09:59:59Z') }),
};
const lookup: CredentialLookup = {
  findBySecretHash: async (hash) =>
    Object.entries(stored).find(([secret]) => hashSecret(secret) === hash)?.[1] ?? null,
};
const verifier = new StaticTokenVerifier({
  ghp_alice: { user: { id: 501, login: 'alice' }, accounts: ['acme', 'alice'] },
});
const guard = new AuthGuard(new Reflector(), new CredentialResolver(lookup, verifier), clock);

/** The guard answers at once when it can; a promise either way here. */
const activate = async (context: ExecutionContext): Promise<boolean> => guard.canActivate(context);

function contextFor(
  controller: new () => object,
  handler: string,
  request: Partial<AuthenticatedRequest>,
): ExecutionContext {
  return {
    getHandler: () => (controller.prototype as Record<string, () => void>)[handler],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

const requestWith = (bearer?: string, params: Record<string, string> = {}): AuthenticatedRequest =>
  ({
    headers:
      bearer === undefined ? {} : { authorization: bearer.includes(' ') ? bearer : `Bearer ${bearer}` },
    params,
  }) as unknown as AuthenticatedRequest;

async function refusal(controller: new () => object, handler: string, request: AuthenticatedRequest) {
  try {
    await activate(contextFor(controller, handler, request));
  } catch (error) {
    expect(error).toBeInstanceOf(ForbiddenException);
    return (error as ForbiddenException).message;
  }
  throw new Error('expected a refusal');
}

const repo = { owner: 'acme', repository: 'widgets' };

describe('AuthGuard', () => {
  describe('route declarations', () => {
    it('lets public routes through without credentials', async () => {
      await expect(activate(contextFor(Routes, 'open', requestWith()))).resolves.toBe(true);
    });

    it('refuses a route that declares nothing, even with a valid admin key (fails closed)', async () => {
      expect(await refusal(Routes, 'undeclared', requestWith('sy_admin_acme'))).toBe(UNDECLARED_ROUTE_DETAIL);
    });

    it("lets a handler's declaration win over its controller's", async () => {
      expect(await refusal(PublicController, 'guarded', requestWith())).toBe(REFUSAL.missing);
      await expect(activate(contextFor(PublicController, 'inherited', requestWith()))).resolves.toBe(true);
      await expect(activate(contextFor(StdController, 'probe', requestWith()))).resolves.toBe(true);
      expect(await refusal(StdController, 'inherited', requestWith())).toBe(REFUSAL.missing);
    });
  });

  describe('refusals (all 403)', () => {
    it.each([
      ['no Authorization header', requestWith()],
      ['a Basic credential', requestWith('Basic c3k6eA==')],
      ['an empty bearer', requestWith('Bearer ')],
    ])('refuses %s', async (_case, request) => {
      expect(await refusal(Routes, 'std', request)).toBe(REFUSAL.missing);
    });

    it.each([
      ['an unknown key', 'sy_admin_nope'],
      ['an unknown host token', 'ghp_mallory'],
      ['a revoked key', 'sy_admin_revoked'],
      ['an expired service token', 'syt_expired'],
    ])('refuses %s', async (_case, bearer) => {
      expect(await refusal(Routes, 'std', requestWith(bearer, repo))).toBe(REFUSAL.invalid);
    });

    it('refuses a CI key on STD routes (queue and freeze management)', async () => {
      expect(await refusal(Routes, 'std', requestWith('sy_ci_acme', repo))).toBe(REFUSAL.kind('ci_key'));
    });

    it('refuses tokens on APP and an admin key on a CI-only route', async () => {
      expect(await refusal(Routes, 'app', requestWith('ghp_alice'))).toBe(REFUSAL.kind('host_token'));
      expect(await refusal(Routes, 'app', requestWith('syt_acme'))).toBe(REFUSAL.kind('service_token'));
      expect(await refusal(Routes, 'ciOnly', requestWith('sy_admin_acme', repo))).toBe(
        REFUSAL.kind('admin_key'),
      );
    });

    it("refuses another account's repository, for keys and host tokens alike", async () => {
      const other = { owner: 'globex', repository: 'widgets' };
      expect(await refusal(Routes, 'std', requestWith('sy_admin_acme', other))).toBe(
        REFUSAL.account('globex'),
      );
      expect(await refusal(Routes, 'std', requestWith('ghp_alice', other))).toBe(REFUSAL.account('globex'));
      expect(await refusal(Routes, 'quar', requestWith('sy_ci_acme', other))).toBe(REFUSAL.account('globex'));
    });
  });

  describe('admissions', () => {
    it('admits an admin key on its own account, case-insensitively, and puts the principal on the request', async () => {
      const request = requestWith('sy_admin_acme', { owner: 'ACME', repository: 'widgets' });
      await expect(activate(contextFor(Routes, 'std', request))).resolves.toBe(true);
      expect(request.principal).toMatchObject({
        kind: 'admin_key',
        actor: { type: 'application', id: stored.sy_admin_acme!.id, name: 'key' },
        accounts: ['Acme'],
      });
    });

    it('admits a CI key on QUAR and APP routes', async () => {
      await expect(activate(contextFor(Routes, 'quar', requestWith('sy_ci_acme', repo)))).resolves.toBe(true);
      await expect(activate(contextFor(Routes, 'app', requestWith('sy_ci_acme')))).resolves.toBe(true);
    });

    it('admits a host token for any of its accounts, as a user actor', async () => {
      const request = requestWith('ghp_alice', { owner: 'alice', repository: 'dotfiles' });
      await expect(activate(contextFor(Routes, 'std', request))).resolves.toBe(true);
      expect(request.principal?.actor).toEqual({ type: 'user', id: 501, name: 'alice' });
    });

    it('accepts the scheme name in any case, as HTTP allows', async () => {
      const request = requestWith('bearer sy_admin_acme', repo);
      await expect(activate(contextFor(Routes, 'std', request))).resolves.toBe(true);
    });
  });
});
