import { Module, type DynamicModule, type ModuleMetadata, type Provider } from '@nestjs/common';
import { HealthController } from './health.controller';
import { RefusedInputs } from './refused-inputs';

export interface HealthModuleOptions {
  /** Modules whose exports the contributors need. */
  imports?: ModuleMetadata['imports'];
  /** A provider for READINESS_CONTRIBUTORS (ReadinessContributor[]), e.g. projection lag. */
  contributors?: Provider;
}

/**
 * /healthz and /readyz. Needs SQL_EXECUTOR and EVENT_STORE in scope (the global PlatformModule
 * provides them). Global, so that any door can count what it refuses (RefusedInputs).
 */
@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions = {}): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      imports: options.imports ?? [],
      controllers: [HealthController],
      providers: [RefusedInputs, ...(options.contributors ? [options.contributors] : [])],
      exports: [RefusedInputs],
    };
  }
}
