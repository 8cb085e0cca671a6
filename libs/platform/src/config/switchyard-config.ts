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
  /** GitHub mode (an App is configured) or sandbox mode. */
  github: GitHubSettings;
  /** The sandbox CI's run duration for a tree that sets none (`sandbox-ci: seconds n`). */
  sandboxCiSeconds: number;
  /**
   * Where the sandbox forge delivers its webhooks; null means the service's own `/webhooks/github`.
   * Set it when the processes sit behind a load balancer, or to watch deliveries elsewhere.
   */
  sandboxWebhookUrl: string | null;
}
