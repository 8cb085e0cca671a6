export * from './principal';
export * from './auth-schemes';
export * from './auth.module';

export * from './domain/account';
export * from './domain/application-key/application-key.commands';
export * from './domain/application-key/application-key.decider';
export * from './domain/application-key/application-key.events';
export * from './domain/application-key/application-key.stream';
export * from './domain/service-token/service-token.commands';
export * from './domain/service-token/service-token.decider';
export * from './domain/service-token/service-token.events';
export * from './domain/service-token/service-token.stream';

export * from './secrets/secrets';

export * from './projection/auth-credentials.projection';
export * from './projection/credential-read-model';
export * from './projection/credential-record';

export * from './host-token/token-verifier';
export * from './host-token/static-token-verifier';
export * from './host-token/github-token-verifier';

export * from './application/auth-service-deps';
export * from './application/application-key.service';
export * from './application/service-token.service';
export * from './application/create-auth-services';
export * from './application/credential-resolver';
export * from './application/credential-summary';
export * from './application/request-authorization';

export * from './http/auth.decorator';
export * from './http/auth.guard';
export * from './http/authenticated-request';
export * from './http/current-principal.decorator';
export * from './http/application.controller';
export * from './http/application.response';

// Routes that need no credentials are marked with the same decorator libs/http uses.
export { Public } from '@switchyard/http';

export * from './session/session-cookie';
export * from './session/session.controller';
