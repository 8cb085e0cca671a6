import type { GitHubSettings } from './github-settings';

/** Everything the processes read from the environment, parsed once at start-up. */
export interface HostTokenGrant {
  user: { id: number; login: string };
  accounts: string[];
}

export interface SwitchyardConfig {
  port: number;
  host: string;
  /** Embedded store directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** PostgreSQL for events and read models; null means the embedded PGlite store. */
  databaseUrl: string | null;
  /** EventStoreDB for events (read models then live in PostgreSQL or PGlite). */
  eventStoreUrl: string | null;
  redisUrl: string | null;
  account: { login: string; id: number | null };
  /** A known bootstrap admin key, so scripts and containers can start with it. */
  adminKey: string | null;
  hostTokens: Record<string, HostTokenGrant>;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: JSON lines, lines for a person, or (`auto`) lines for a person when stdout is a terminal. */
  logFormat: 'auto' | 'pretty' | 'json';
  trustProxy: boolean;
  /** How long a write endpoint waits for the read models to include its events. */
  readYourWritesTimeoutMs: number;
  /**
   * PostgreSQL's limits on every session (SqlLimits), in ms: the longest a statement may run, and
   * the longest a transaction may wait for its next statement. Long work (projections, rebuilds,
   * schema setup) sets its own for its transactions.
   */
  databaseLimits: { statementTimeoutMs: number; idleInTransactionTimeoutMs: number };
  /** GitHub mode (an App is configured) or sandbox mode. */
  github: GitHubSettings;
  /** The sandbox CI's run duration for a tree that sets none (`sandbox-ci: seconds n`). */
  sandboxCiSeconds: number;
  /**
   * Where the sandbox forge delivers its webhooks; null means the service's own `/webhooks/github`.
   * Set it when the processes sit behind a load balancer, or to watch deliveries elsewhere.
   */
  sandboxWebhookUrl: string | null;
  /**
   * The URL at which the other processes of the deployment reach this api (SWITCHYARD_ADVERTISED_URL),
   * recorded in the database for them in sandbox mode (where the engine and the projector find the
   * forge); null means where it listens, which suits processes on one host but not containers.
   */
  advertisedUrl: string | null;
}
