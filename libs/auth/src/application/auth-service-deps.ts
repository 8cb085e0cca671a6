import type { CommandService } from '@switchyard/event-store/application';
import type { EventStore } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Clock } from '@switchyard/kernel';
import type { ReadModelFreshness } from '@switchyard/projection';

/** What the credential services need; the platform provides each behind its Nest token. */
export interface AuthServiceDeps {
  /** For headPosition(): "is the read model up to date with everything written so far?". */
  store: EventStore;
  commands: CommandService;
  /** The read-model database holding `auth_credentials`. */
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  clock: Clock;
}
