/** The processes Switchyard runs, and the short-lived operator tools. */
export type RuntimeRole = 'all-in-one' | 'api' | 'projector' | 'engine' | 'cli' | 'rebuild';

/**
 * The processors a process runs: every one; the projections with the reactors that feed the
 * read models (the projector); only the merge-queue engine's reactors and timers (the engine);
 * only the projections, no reactor and no timer (a CLI command, for read-your-writes on its own
 * writes); or none.
 */
export type ProcessorSet = 'all' | 'projections' | 'engine' | 'read-models' | 'none';

export interface RoleTraits {
  /** The processors this process runs. */
  processors: ProcessorSet;
  /** Where read-your-writes comes from: its own processors, or the checkpoints others commit. */
  freshness: 'own-processors' | 'checkpoints' | 'none';
  /** Announces committed checkpoints: always, only when others can share the database, or never. */
  announces: 'always' | 'shared-database' | 'never';
  /** The CLI retries for a projection's lock quickly, since it only lives for one command. */
  lockRetryMs?: number;
  /** A floor under the read-your-writes wait (the CLI may follow a busy projector). */
  minimumWaitMs?: number;
  /** The api shares its stores with a projector elsewhere, which needs PostgreSQL. */
  needsDatabaseUrl: boolean;
  /** Serves HTTP, and so /readyz for every processor of the deployment. */
  servesHttp: boolean;
}

/**
 * One table says what each role starts, so the factory has no role-specific branches and a reader
 * sees every process's make-up in one place.
 */
export const ROLE_TRAITS: Readonly<Record<RuntimeRole, RoleTraits>> = {
  'all-in-one': {
    processors: 'all',
    freshness: 'own-processors',
    announces: 'shared-database',
    needsDatabaseUrl: false,
    servesHttp: true,
  },
  api: {
    processors: 'none',
    freshness: 'checkpoints',
    announces: 'never',
    needsDatabaseUrl: true,
    servesHttp: true,
  },
  projector: {
    processors: 'projections',
    freshness: 'none',
    announces: 'always',
    needsDatabaseUrl: false,
    servesHttp: false,
  },
  // Its reactors read the read models the projector builds: it waits on the projector's checkpoints.
  engine: {
    processors: 'engine',
    freshness: 'checkpoints',
    announces: 'always',
    needsDatabaseUrl: false,
    servesHttp: false,
  },
  // A command must never act on pull requests: it catches up only the read models it waits on.
  cli: {
    processors: 'read-models',
    freshness: 'checkpoints',
    announces: 'always',
    lockRetryMs: 500,
    minimumWaitMs: 30_000,
    needsDatabaseUrl: false,
    servesHttp: false,
  },
  rebuild: {
    processors: 'none',
    freshness: 'none',
    announces: 'never',
    needsDatabaseUrl: false,
    servesHttp: false,
  },
};
