import type { Clock } from '@switchyard/kernel';
import type { SqlExecutor, SqlQueryable } from '@switchyard/sql';
import { ensureSandboxSchema } from '../store/sandbox-schema';
import { ObjectCache, SandboxStore } from '../store/sandbox-store';
import { isSandboxServiceToken } from '../service-token';
import { sandboxWebhookSecret } from '../webhooks/webhook-signature';
import { WebhookDeliverer } from '../webhooks/webhook-deliverer';
import { completeSandboxCiRun } from './checks';
import { ForgeTransaction, RepositoryToCreate, SANDBOX_BOT } from './forge-transaction';
import { hashToken } from './org';
import type { CheckConclusion, SandboxUser } from './sandbox-records';
import { systemTimers, type Timers } from './timers';

export interface SandboxForgeOptions {
  readonly executor: SqlExecutor;
  readonly clock: Clock;
  readonly timers?: Timers;
  /** The sandbox CI's default duration (SWITCHYARD_SANDBOX_CI_SECONDS). */
  readonly ciSeconds: number;
  /** SWITCHYARD_GITHUB_WEBHOOK_SECRET, or null to generate one and keep it. */
  readonly webhookSecret: string | null;
  /** The service's own origin (`http://127.0.0.1:8080`) once it listens, or null before. */
  readonly serviceOrigin: () => string | null;
  /** SWITCHYARD_SANDBOX_WEBHOOK_URL: deliver there instead of the service's own `/webhooks/github`. */
  readonly webhookUrl?: string | null;
  readonly onDeliveryError?: (error: unknown, delivery: { guid: string; event: string }) => void;
}

export const SANDBOX_PATH = '/sandbox/github';

/** Advisory lock key of sandbox writes (any fixed bigint apart from the other locks of the schema). */
const SANDBOX_WRITE_LOCK = '7320345187665001';

/**
 * Every operation does work bounded by GitHub's limits (forge/pulls/*.ts), so none needs long:
 * on PostgreSQL a statement (the write lock's wait included) or a pause inside the transaction
 * longer than this fails the operation instead of holding rows and the lock. PGlite accepts the
 * settings and has no timer to enforce them: its one connection serves one transaction at a time.
 */
const FORGE_STATEMENT_TIMEOUT = '5s';
export const WEBHOOK_PATH = '/webhooks/github';

/**
 * The sandbox forge: runs each operation in one serialized SQL transaction (its webhooks queued in
 * it), then delivers the webhooks and times the CI runs it started. Everything it knows is in its
 * tables, so a restart resumes pending deliveries and CI runs where they were.
 */
export class SandboxForge {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly ciTimers = new Map<string, unknown>();
  private closed = false;
  private lastApiBase: string | null = null;
  private readonly timers: Timers;
  private readonly objects = new ObjectCache();

  private constructor(
    private readonly options: SandboxForgeOptions,
    readonly webhookSecret: string,
    readonly deliveries: WebhookDeliverer,
  ) {
    this.timers = options.timers ?? systemTimers;
  }

  static async open(options: SandboxForgeOptions): Promise<SandboxForge> {
    await ensureSandboxSchema(options.executor);
    const secret = await sandboxWebhookSecret(options.executor, options.webhookSecret);
    const deliverer = new WebhookDeliverer({
      executor: options.executor,
      clock: options.clock,
      timers: options.timers ?? systemTimers,
      secret,
      target: () => {
        if (options.webhookUrl) return options.webhookUrl;
        const origin = options.serviceOrigin();
        return origin === null ? null : `${origin}${WEBHOOK_PATH}`;
      },
      onError: options.onDeliveryError,
    });
    return new SandboxForge(options, secret, deliverer);
  }

  /** Resumes what a previous run left pending: undelivered webhooks and unfinished CI runs. */
  async start(): Promise<void> {
    await this.scheduleCiRuns();
    this.deliveries.wake();
  }

  /** Stops timers and deliveries, and waits for the operation and delivery in flight. */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.ciTimers.values()) this.timers.clearTimeout(handle);
    this.ciTimers.clear();
    await this.queue;
    await this.deliveries.close();
  }

  /** The caller behind a token: host tokens are their users, admin keys and installation tokens the App's bot. */
  async authenticate(
    token: string,
    known: {
      hostUser: (token: string) => SandboxUser | null;
      isAdminKey: (token: string) => Promise<boolean>;
    },
  ): Promise<SandboxUser | null> {
    const hostUser = known.hostUser(token);
    if (hostUser) return hostUser;
    if (token.startsWith('ghs_')) {
      return (await new SandboxStore(this.options.executor).tokenValid(
        hashToken(token),
        this.options.clock.now(),
      ))
        ? SANDBOX_BOT
        : null;
    }
    if (await isSandboxServiceToken(this.options.executor, token)) return SANDBOX_BOT;
    return (await known.isAdminKey(token)) ? SANDBOX_BOT : null;
  }

  /**
   * Runs one operation as `actor`, with URLs under `apiBase`; webhooks and CI follow its commit.
   * A read (`readOnly`: GET) runs beside everything else in a read-only snapshot, without the
   * write lock, so one repository's write never holds up another's reads; a read that finds its
   * repository missing runs again as a write, which creates it (sandbox mode's promise).
   */
  async run<T>(
    actor: SandboxUser,
    apiBase: string,
    operation: (tx: ForgeTransaction) => Promise<T>,
    options: { readOnly?: boolean } = {},
  ): Promise<T> {
    this.lastApiBase = apiBase;
    if (options.readOnly) {
      try {
        return await this.read(actor, apiBase, operation);
      } catch (error) {
        if (!(error instanceof RepositoryToCreate)) throw error;
      }
    }
    const result = this.serialized(async () => {
      let store: SandboxStore | null = null;
      const answer = await this.options.executor.transaction(async (sql) => {
        await bounded(sql);
        // Processes sharing one PostgreSQL take turns too (numbering, refs, CI completion).
        await sql.query('SELECT pg_advisory_xact_lock($1)', [SANDBOX_WRITE_LOCK]);
        store = new SandboxStore(sql, this.objects);
        return operation(
          new ForgeTransaction(store, this.options.clock.now(), actor, apiBase, {
            ciSeconds: this.options.ciSeconds,
          }),
        );
      });
      (store as SandboxStore | null)?.commitPending();
      return answer;
    });
    await result.then(
      () => this.afterCommit(),
      () => undefined,
    );
    return result;
  }

  private read<T>(
    actor: SandboxUser,
    apiBase: string,
    operation: (tx: ForgeTransaction) => Promise<T>,
  ): Promise<T> {
    return this.options.executor.transaction(async (sql) => {
      await sql.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await bounded(sql);
      return operation(
        new ForgeTransaction(new SandboxStore(sql, this.objects), this.options.clock.now(), actor, apiBase, {
          ciSeconds: this.options.ciSeconds,
          readOnly: true,
        }),
      );
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async afterCommit(): Promise<void> {
    if (this.closed) return;
    this.deliveries.wake();
    await this.scheduleCiRuns();
  }

  private apiBase(): string {
    return this.lastApiBase ?? `${this.options.serviceOrigin() ?? 'http://127.0.0.1'}${SANDBOX_PATH}`;
  }

  private async scheduleCiRuns(): Promise<void> {
    const { rows } = await this.options.executor.query<{
      check_run_id: string;
      due_at: Date;
      conclusion: string;
    }>('SELECT check_run_id, due_at, conclusion FROM sandbox_ci_runs ORDER BY due_at');
    for (const row of rows) {
      const id = String(row.check_run_id);
      if (this.ciTimers.has(id) || this.closed) continue;
      const wait = Math.max(0, new Date(row.due_at).getTime() - this.options.clock.now().getTime());
      this.ciTimers.set(
        id,
        this.timers.setTimeout(
          () => void this.completeCiRun(Number(id), row.conclusion as CheckConclusion),
          wait,
        ),
      );
    }
  }

  private async completeCiRun(checkRunId: number, conclusion: CheckConclusion): Promise<void> {
    if (this.closed) return;
    try {
      await this.run(SANDBOX_BOT, this.apiBase(), async (tx) => {
        await completeSandboxCiRun(tx, checkRunId, conclusion);
        await tx.store.finishCiRun(checkRunId);
      });
    } finally {
      this.ciTimers.delete(String(checkRunId));
    }
  }
}

async function bounded(sql: SqlQueryable): Promise<void> {
  await sql.query(`SET LOCAL statement_timeout = '${FORGE_STATEMENT_TIMEOUT}'`);
  await sql.query(`SET LOCAL idle_in_transaction_session_timeout = '${FORGE_STATEMENT_TIMEOUT}'`);
}
