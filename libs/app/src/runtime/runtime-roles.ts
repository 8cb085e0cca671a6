/** The processes Switchyard runs, and the short-lived operator tools. */
export type RuntimeRole = 'all-in-one' | 'api' | 'projector' | 'engine' | 'cli' | 'rebuild';

export interface RoleTraits {
  /** Runs the processors (projections, reactors) in this process. */
  runsProcessors: boolean;
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
}

/**
 * One table says what each role starts, so the factory has no role-specific branches and a reader
 * sees every process's make-up in one place.
 */
export const ROLE_TRAITS: Readonly<Record<RuntimeRole, RoleTraits>> = {
  'all-in-one': {
    runsProcessors: true,
    freshness: 'own-processors',
    announces: 'shared-database',
    needsDatabaseUrl: false,
  },
  api: { runsProcessors: false, freshness: 'checkpoints', announces: 'never', needsDatabaseUrl: true },
  projector: { runsProcessors: true, freshness: 'none', announces: 'always', needsDatabaseUrl: false },
  engine: { runsProcessors: false, freshness: 'none', announces: 'never', needsDatabaseUrl: false },
  cli: {
    runsProcessors: true,
    freshness: 'checkpoints',
    announces: 'always',
    lockRetryMs: 500,
    minimumWaitMs: 30_000,
    needsDatabaseUrl: false,
  },
  rebuild: { runsProcessors: false, freshness: 'none', announces: 'never', needsDatabaseUrl: false },
};
