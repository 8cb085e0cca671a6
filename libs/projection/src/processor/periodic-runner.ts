import { abortableSleep, backoffMs, type Position } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { ensureCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import {
  advisoryLockOwnership,
  ownershipIsNews,
  OwnershipLostError,
  type Ownership,
  type OwnershipSource,
} from '../lock/ownership';
import { errorMessage, type ProjectionLogger } from '../logger';
import type { PeriodicProcessor } from './periodic';
import type { ProcessorStatus, RunnerState } from './processor-status';

export interface PeriodicRunnerOptions {
  executor: SqlExecutor;
  logger: ProjectionLogger;
  ownership?: OwnershipSource;
  lockRetryMs?: number;
}

/**
 * Runs a periodic processor while this process owns it: waits for its lock or lease, then ticks
 * every interval until it stops or loses its ownership, when it stops acting at once and waits
 * for the ownership again. A failing tick is logged and tried again at the next one (reported in
 * /readyz meanwhile). It has a row in the checkpoint table for its heartbeat, with no position.
 */
export class PeriodicRunner {
  private state: RunnerState = 'stopped';
  private lastError: string | null = null;
  private failures = 0;
  private owning = false;
  private running: { controller: AbortController; done: Promise<void> } | null = null;

  constructor(
    readonly processor: PeriodicProcessor,
    private readonly options: PeriodicRunnerOptions,
  ) {}

  get name(): string {
    return this.processor.name;
  }

  get owns(): boolean {
    return this.owning;
  }

  get failed(): null {
    return null;
  }

  position(): Position | 'start' | null {
    return null;
  }

  refusal(): string | null {
    return null;
  }

  async waitFor(): Promise<boolean> {
    return true;
  }

  async replayRequested(): Promise<void> {}

  start(): void {
    if (this.running) return;
    const controller = new AbortController();
    const done = this.run(controller.signal)
      .catch((error: unknown) => {
        this.lastError = `runner: ${errorMessage(error)}`;
        this.options.logger.error(
          { processor: this.name, error: errorMessage(error) },
          'processor runner stopped',
        );
      })
      .finally(() => {
        this.state = 'stopped';
        if (this.running?.done === done) this.running = null;
      });
    this.running = { controller, done };
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }

  status(): ProcessorStatus {
    return {
      name: this.name,
      kind: 'periodic',
      version: 1,
      state: this.failures > 0 && this.state === 'live' ? 'failing' : this.state,
      position: null,
      lagging: false,
      lastError: this.lastError,
      failures: this.failures,
      failedOn: null,
    };
  }

  private waitedForOwnership = false;

  private ownershipSource(): OwnershipSource {
    return this.options.ownership ?? advisoryLockOwnership(this.options.executor);
  }

  private async run(stop: AbortSignal): Promise<void> {
    await this.options.executor.transaction(async (tx) => {
      await ensureCheckpointTable(tx);
      await ensureCheckpoint(tx, this.name, 1);
    });
    while (!stop.aborted) {
      const ownership = await this.acquire(stop);
      if (!ownership) return;
      const signal = AbortSignal.any([stop, ownership.lost]);
      const source = this.ownershipSource();
      const owns = { processor: this.name, ownership: source.kind };
      if (ownershipIsNews(source, this.waitedForOwnership)) {
        this.options.logger.info(owns, 'processor owns its work here');
      } else this.options.logger.debug?.(owns, 'processor owns its work here');
      this.waitedForOwnership = true; // a later ownership follows a loss
      this.owning = true;
      this.state = 'live';
      try {
        await this.tickWhileOwned(signal, ownership);
      } finally {
        this.owning = false;
        await ownership.release();
      }
      if (stop.aborted) return;
      this.options.logger.warn(
        { processor: this.name, error: errorMessage(ownership.lost.reason) },
        'processor lost its ownership, stopped acting and waits for it again',
      );
    }
  }

  private async tickWhileOwned(signal: AbortSignal, ownership: Ownership): Promise<void> {
    const assertOwnership = () => {
      if (signal.aborted || !ownership.held()) throw new OwnershipLostError(this.name);
    };
    while (!signal.aborted) {
      const delay =
        this.failures > 0
          ? Math.max(this.processor.intervalMs, backoffMs(this.failures, 30_000))
          : this.processor.intervalMs;
      await abortableSleep(delay, signal);
      if (signal.aborted || !ownership.held()) return;
      try {
        await this.processor.tick({ signal, assertOwnership });
        this.failures = 0;
        this.lastError = null;
      } catch (error) {
        if (signal.aborted || error instanceof OwnershipLostError) return;
        this.failures += 1;
        this.lastError = `tick: ${errorMessage(error)}`;
        this.options.logger.warn(
          { processor: this.name, failures: this.failures, error: errorMessage(error) },
          'periodic processor tick failed, trying again',
        );
      }
    }
  }

  private async acquire(signal: AbortSignal): Promise<Ownership | null> {
    const source = this.ownershipSource();
    while (!signal.aborted) {
      this.state = 'waiting-for-lock';
      try {
        const ownership = await source.tryAcquire(this.name);
        if (ownership && signal.aborted) await ownership.release();
        else if (ownership) return ownership;
        else this.waitedForOwnership = true;
      } catch (error) {
        this.lastError = `lock: ${errorMessage(error)}`;
      }
      await abortableSleep(this.options.lockRetryMs ?? 5000, signal);
    }
    return null;
  }
}
