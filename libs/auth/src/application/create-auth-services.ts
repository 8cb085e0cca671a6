import { ApplicationKeyService } from './application-key.service';
import type { AuthServiceDeps } from './auth-service-deps';
import { ServiceTokenService } from './service-token.service';

export interface AuthServices {
  keys: ApplicationKeyService;
  tokens: ServiceTokenService;
}

/** For processes without Nest (the CLI): both services over the same dependencies. */
export const createAuthServices = (deps: AuthServiceDeps): AuthServices => ({
  keys: new ApplicationKeyService(deps),
  tokens: new ServiceTokenService(deps),
});
