import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import type { ReadModelFreshness } from '@switchyard/projection';
import type { SwitchyardConfig } from '../config/switchyard-config';
import type { Storage } from '../storage/open-storage';
import {
  APP_CONFIG,
  CLOCK,
  COMMAND_SERVICE,
  EVENT_STORE,
  READ_MODEL_FRESHNESS,
  SQL_EXECUTOR,
} from '../tokens';

export interface PlatformRuntime {
  config: SwitchyardConfig;
  storage: Storage;
  freshness: ReadModelFreshness;
  clock: Clock;
}

/**
 * Hands the infrastructure opened before Nest starts (so start-up errors are plain and early) to
 * every feature module through the shared tokens.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: APP_CONFIG, useValue: runtime.config },
        { provide: SQL_EXECUTOR, useValue: runtime.storage.executor },
        { provide: EVENT_STORE, useValue: runtime.storage.store },
        { provide: COMMAND_SERVICE, useValue: new CommandService(runtime.storage.store) },
        { provide: READ_MODEL_FRESHNESS, useValue: runtime.freshness },
        { provide: CLOCK, useValue: runtime.clock },
      ],
      exports: [APP_CONFIG, SQL_EXECUTOR, EVENT_STORE, COMMAND_SERVICE, READ_MODEL_FRESHNESS, CLOCK],
    };
  }
}
