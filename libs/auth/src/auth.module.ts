import {
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { CommandService } from '@switchyard/event-store/application';
import type { EventStore } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import type { Clock } from '@switchyard/kernel';
import {
  APP_CONFIG,
  CLOCK,
  COMMAND_SERVICE,
  EVENT_STORE,
  READ_MODEL_FRESHNESS,
  SQL_EXECUTOR,
  type HostTokenGrant,
} from '@switchyard/platform';
import type { ReadModelFreshness } from '@switchyard/projection';
import { ApplicationKeyService } from './application/application-key.service';
import type { AuthServiceDeps } from './application/auth-service-deps';
import { CachedCredentialLookup } from './application/credential-cache';
import { CredentialResolver } from './application/credential-resolver';
import { invalidatingFreshness } from './application/invalidating-freshness';
import { ServiceTokenService } from './application/service-token.service';
import { StaticTokenVerifier } from './host-token/static-token-verifier';
import { TOKEN_VERIFIER, type TokenVerifier } from './host-token/token-verifier';
import { ApplicationController } from './http/application.controller';
import { SessionController } from './session/session.controller';
import { AuthGuard } from './http/auth.guard';
import {
  AuthCredentialsProjection,
  authCredentialsProjection,
} from './projection/auth-credentials.projection';
import { CredentialReadModel } from './projection/credential-read-model';

/** The configuration field AuthModule reads (SwitchyardConfig has it). */
export interface AuthSettings {
  hostTokens: Readonly<Record<string, HostTokenGrant>>;
}

export interface AuthModuleOptions {
  /** Modules the token verifier factory needs. */
  imports?: ModuleMetadata['imports'];
  /** Replaces the default verifier (a static table from APP_CONFIG.hostTokens), e.g. with GitHub's. */
  tokenVerifier?: Pick<FactoryProvider<TokenVerifier | Promise<TokenVerifier>>, 'useFactory' | 'inject'>;
}

const AUTH_SERVICE_DEPS = Symbol('AUTH_SERVICE_DEPS');
const CREDENTIAL_CACHE = Symbol('CREDENTIAL_CACHE');

/**
 * Authentication for the HTTP apps: the global guard (fail closed), GET /v1/application, the
 * credential services and the `auth_credentials` projection (export it to the projection runner).
 * Needs the platform tokens SQL_EXECUTOR, EVENT_STORE, COMMAND_SERVICE, READ_MODEL_FRESHNESS, CLOCK
 * and APP_CONFIG in scope (the global PlatformModule provides them).
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions = {}): DynamicModule {
    const verifier: Provider = options.tokenVerifier
      ? { provide: TOKEN_VERIFIER, ...options.tokenVerifier }
      : {
          provide: TOKEN_VERIFIER,
          useFactory: (config: AuthSettings) => new StaticTokenVerifier(config.hostTokens ?? {}),
          inject: [APP_CONFIG],
        };
    return {
      module: AuthModule,
      imports: options.imports ?? [],
      controllers: [ApplicationController, SessionController],
      providers: [
        verifier,
        { provide: AuthCredentialsProjection, useValue: authCredentialsProjection },
        {
          provide: CREDENTIAL_CACHE,
          useFactory: (sql: SqlExecutor, clock: Clock) =>
            new CachedCredentialLookup(new CredentialReadModel(sql), clock),
          inject: [SQL_EXECUTOR, CLOCK],
        },
        {
          provide: CredentialResolver,
          useFactory: (credentials: CachedCredentialLookup, tokens: TokenVerifier) =>
            new CredentialResolver(credentials, tokens),
          inject: [CREDENTIAL_CACHE, TOKEN_VERIFIER],
        },
        {
          provide: AUTH_SERVICE_DEPS,
          useFactory: (
            store: EventStore,
            commands: CommandService,
            sql: SqlExecutor,
            freshness: ReadModelFreshness,
            clock: Clock,
            credentials: CachedCredentialLookup,
          ): AuthServiceDeps => ({
            store,
            commands,
            sql,
            // A revocation made here is refused from the next request on, not after the cache's TTL.
            freshness: invalidatingFreshness(freshness, credentials),
            clock,
          }),
          inject: [EVENT_STORE, COMMAND_SERVICE, SQL_EXECUTOR, READ_MODEL_FRESHNESS, CLOCK, CREDENTIAL_CACHE],
        },
        {
          provide: ApplicationKeyService,
          useFactory: (deps: AuthServiceDeps) => new ApplicationKeyService(deps),
          inject: [AUTH_SERVICE_DEPS],
        },
        {
          provide: ServiceTokenService,
          useFactory: (deps: AuthServiceDeps) => new ServiceTokenService(deps),
          inject: [AUTH_SERVICE_DEPS],
        },
        AuthGuard,
        { provide: APP_GUARD, useExisting: AuthGuard },
      ],
      exports: [
        AuthGuard,
        CredentialResolver,
        ApplicationKeyService,
        ServiceTokenService,
        AuthCredentialsProjection,
        TOKEN_VERIFIER,
      ],
    };
  }
}
