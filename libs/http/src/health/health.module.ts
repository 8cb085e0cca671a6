import { Module, type DynamicModule, type ModuleMetadata, type Provider } from '@nestjs/common';
import { HealthController } from './health.controller';

export interface HealthModuleOptions {
  /** Modules whose exports the contributors need. */
  imports?: ModuleMetadata['imports'];
  /** A provider for READINESS_CONTRIBUTORS (ReadinessContributor[]), e.g. projection lag. */
  contributors?: Provider;
}

/**
 * /healthz and /readyz. Needs SQL_EXECUTOR and EVENT_STORE in scope (the global PlatformModule
 * provides them).
 */
@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions = {}): DynamicModule {
    return {
      module: HealthModule,
      imports: options.imports ?? [],
      controllers: [HealthController],
      providers: options.contributors ? [options.contributors] : [],
    };
  }
}
