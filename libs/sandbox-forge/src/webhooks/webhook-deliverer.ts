import type { SqlExecutor } from '@switchyard/sql';
import type { Clock } from '@switchyard/kernel';
import { signatureSha1, signatureSha256 } from './webhook-signature';
import { SANDBOX_APP_ID } from '../forge/github-shapes';
import type { Timers } from '../forge/timers';

export interface WebhookDelivererOptions {
  readonly executor: SqlExecutor;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly secret: string;
  /** Where deliveries go (the service's own `/webhooks/github`), or null while it is not listening yet. */
  readonly target: () => string | null;
  /** Attempts before a delivery is given up (GitHub keeps failed deliveries for manual redelivery). */
  readonly maxAttempts?: number;
  readonly onError?: (error: unknown, delivery: { guid: string; event: string }) => void;
}

interface PendingDelivery {
  id: string;
  guid: string;
  event: string;
  payload: unknown;
  attempts: number;
}

const RETRY_BASE_MS = 500;
const LOCK_RETRY_MS = 1_000;
const DELIVERY_LOCK = 'switchyard:sandbox-webhook-deliveries';
const RETRY_MAX_MS = 60_000;

/**
 * Sends the queued deliveries in the order their changes happened, one at a time, over HTTP, as
 * GitHub's hookshot does, off the request path: a REST answer never waits for its webhooks. A
 * failed delivery is retried with backoff before the ones after it, so the intake sees them in order.
 */
export class WebhookDeliverer {
  private running = false;
  private again = false;
  private retryTimer: unknown = null;
  private closed = false;
  private current: Promise<void> | null = null;
  private releaseLock: (() => Promise<void>) | null = null;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: WebhookDelivererOptions) {}

  /** Starts sending whatever is queued (idempotent: a running pump picks up new rows itself). */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.current = this.pump()
      .catch((error: unknown) => {
        if (!this.closed) this.options.onError?.(error, { guid: '', event: '' });
      })
      .finally(() => {
        this.running = false;
        if (this.again && !this.closed) {
          this.again = false;
          this.wake();
        } else this.settle();
      });
  }

  /** Resolves once nothing is queued or in flight (tests and shutdown). */
  async drained(): Promise<void> {
    if (!this.running && !(await this.hasPending())) return;
    await new Promise<void>((resolve) => this.idle.add(resolve));
    return this.drained();
  }

  /** Stops sending; resolves once a delivery in flight has finished (before the store closes). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== null) this.options.timers.clearTimeout(this.retryTimer);
    await this.current;
    await this.releaseLock?.();
    this.releaseLock = null;
    this.settle();
  }

  private settle() {
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private async hasPending(): Promise<boolean> {
    const { rows } = await this.options.executor.query(
      'SELECT 1 FROM sandbox_deliveries WHERE delivered_at IS NULL LIMIT 1',
    );
    return rows.length > 0;
  }

  private async pump(): Promise<void> {
    // One sender across processes sharing a database, so each delivery goes out once and in order;
    // a process that finds it taken looks again shortly (its own changes may be waiting).
    // The lock is kept once taken (one session for the process's life, not one per change).
    this.releaseLock ??= await this.options.executor.acquireSessionLock(DELIVERY_LOCK);
    if (!this.releaseLock) {
      this.scheduleRetry(LOCK_RETRY_MS);
      return;
    }
    await this.sendPending();
  }

  private scheduleRetry(ms: number): void {
    if (this.closed || this.retryTimer !== null) return;
    this.retryTimer = this.options.timers.setTimeout(() => {
      this.retryTimer = null;
      this.wake();
    }, ms);
  }

  private async sendPending(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const { rows } = await this.options.executor.query<PendingDelivery>(
        'SELECT id, guid, event, payload, attempts FROM sandbox_deliveries WHERE delivered_at IS NULL ORDER BY id LIMIT 20',
      );
      if (rows.length === 0) return;
      for (const delivery of rows) {
        if (this.closed || !(await this.deliver(delivery))) return;
      }
    }
  }

  /** True when the delivery is done with (sent, or given up); false when it waits for a retry. */
  private async deliver(delivery: PendingDelivery): Promise<boolean> {
    const target = this.options.target();
    const body = JSON.stringify(delivery.payload);
    let status: number | null = null;
    let error: string | null = null;
    if (target === null) error = 'the service is not listening yet';
    else {
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: this.headers(delivery, body),
          body,
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        await response.arrayBuffer();
        if (status >= 200 && status < 300) {
          await this.record(delivery, status, null, true);
          return true;
        }
        error = `answered ${status}`;
      } catch (cause) {
        error = (cause as Error).message;
        this.options.onError?.(cause, delivery);
      }
    }
    const attempts = delivery.attempts + 1;
    if (attempts >= (this.options.maxAttempts ?? 8)) {
      await this.record({ ...delivery, attempts: attempts - 1 }, status, error, true);
      return true;
    }
    await this.record({ ...delivery, attempts: attempts - 1 }, status, error, false);
    this.scheduleRetry(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempts - 1)));
    return false;
  }

  private headers(delivery: PendingDelivery, body: string): Record<string, string> {
    return {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/switchyard-sandbox',
      'x-github-event': delivery.event,
      'x-github-delivery': delivery.guid,
      'x-github-hook-id': String(SANDBOX_APP_ID),
      'x-github-hook-installation-target-id': String(SANDBOX_APP_ID),
      'x-github-hook-installation-target-type': 'integration',
      'x-hub-signature': signatureSha1(this.options.secret, body),
      'x-hub-signature-256': signatureSha256(this.options.secret, body),
    };
  }

  private async record(
    delivery: PendingDelivery,
    status: number | null,
    error: string | null,
    done: boolean,
  ) {
    await this.options.executor.query(
      `UPDATE sandbox_deliveries SET attempts = $2, status = $3, last_error = $4,
         delivered_at = CASE WHEN $5 THEN $6::timestamptz ELSE NULL END, next_attempt_at = $6::timestamptz
       WHERE id = $1`,
      [delivery.id, delivery.attempts + 1, status, error, done, this.options.clock.now()],
    );
  }
}
