import { comparePositions, type Position } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import { recordHeartbeats } from '../checkpoint/checkpoint-store';
import { ReadModelStoppedError, type CheckpointListener, type ReadModelFreshness } from '../freshness';
import { errorMessage, type ProjectionLogger } from '../logger';
import type { PeriodicRunner } from './periodic-runner';
import type { Processor } from './processor';
import { ProcessorRunner, type ProcessorRunnerOptions } from './processor-runner';
import type { ProcessorStatus } from './processor-status';

/** What the host runs: an event processor's runner, or a periodic processor's. */
export type HostedRunner = ProcessorRunner | PeriodicRunner;

/** How often a host records the heartbeats of the processors it owns; /readyz judges staleness by it. */
export const HEARTBEAT_INTERVAL_MS = 5000;

export interface HeartbeatOptions {
  /** Where the checkpoints live. */
  executor: SqlQueryable;
  logger: ProjectionLogger;
  intervalMs?: number;
}

/**
 * Runs a set of processors in this process and answers read-your-writes for them, per read model:
 * a wait covers only the processors it names, so one that lags, rebuilds or has stopped delays
 * only its own readers. Each runner wakes its own waiters on commit, so nothing here polls.
 */
export class ProcessorHost implements ReadModelFreshness {
  private readonly byName = new Map<string, HostedRunner>();
  private heartbeat: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private beatFailing = false;

  constructor(
    readonly runners: readonly HostedRunner[],
    private readonly defaultTimeoutMs = 5000,
    /** Records the owned processors' heartbeats and carries out requested replays; none without. */
    private readonly heartbeats?: HeartbeatOptions,
  ) {
    for (const runner of runners) {
      if (this.byName.has(runner.name)) throw new Error(`Two runners for processor ${runner.name}`);
      this.byName.set(runner.name, runner);
    }
  }

  static of(processors: readonly Processor[], options: ProcessorRunnerOptions): ProcessorHost {
    return new ProcessorHost(
      processors.map((processor) => new ProcessorRunner(processor, options)),
      options.defaultWaitTimeoutMs,
    );
  }

  /** Every processor this host runs. */
  get names(): string[] {
    return this.runners.map((runner) => runner.name);
  }

  start(): void {
    for (const runner of this.runners) runner.start();
    const heartbeats = this.heartbeats;
    if (!heartbeats || this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (!this.beating) this.beating = this.beat(heartbeats).finally(() => (this.beating = null));
    }, heartbeats.intervalMs ?? HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await Promise.all(this.runners.map((runner) => runner.stop()));
    await this.beating;
  }

  /**
   * One heartbeat: the processors this process owns say they are alive (and what they retry), and
   * each carries out the replays of parked events asked of it.
   */
  private async beat(heartbeats: HeartbeatOptions): Promise<void> {
    const owned = this.runners.filter((runner) => runner.owns);
    try {
      await recordHeartbeats(
        heartbeats.executor,
        owned.map((runner) => ({ name: runner.name, lastError: runner.status().lastError })),
      );
      this.beatFailing = false;
    } catch (error) {
      // Readers elsewhere see the heartbeat age; say so once per outage.
      if (!this.beatFailing)
        heartbeats.logger.warn({ error: errorMessage(error) }, 'could not record the processors heartbeats');
      this.beatFailing = true;
    }
    for (const runner of owned)
      await runner
        .replayRequested()
        .catch((error: unknown) =>
          heartbeats.logger.warn(
            { processor: runner.name, error: errorMessage(error) },
            'replay of parked events failed',
          ),
        );
  }

  async assertRunning(readModels: readonly string[]): Promise<void> {
    const stopped = readModels
      .map((name) => this.runnerOf(name))
      .filter((runner) => runner.refusal() !== null)
      .map((runner) => runner.name);
    if (stopped.length > 0) throw new ReadModelStoppedError(stopped);
  }

  async waitFor(
    readModels: readonly string[],
    position: Position | null,
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<boolean> {
    if (position === null) return true;
    const runners = readModels.map((name) => this.runnerOf(name));
    const reached = await Promise.all(runners.map((runner) => runner.waitFor(position, timeoutMs)));
    return reached.every(Boolean);
  }

  /** Read from the runners' committed checkpoints, which they update only after each commit. */
  includedPosition(readModels: readonly string[]): Position | 'start' | null {
    let lowest: Position | 'start' | null = null;
    for (const name of readModels) {
      const position = this.runnerOf(name).position();
      if (position === null) return null;
      if (lowest === null || comparePositions(position, lowest) < 0) lowest = position;
    }
    return lowest;
  }

  onAdvance(readModel: string, listener: CheckpointListener): () => void {
    const runner = this.runnerOf(readModel);
    if (!('onAdvance' in runner))
      throw new Error(`${readModel} is a periodic processor: it has no checkpoint`);
    return runner.onAdvance(listener);
  }

  runner(name: string): HostedRunner | undefined {
    return this.byName.get(name);
  }

  status(): ProcessorStatus[] {
    return this.runners.map((runner) => runner.status());
  }

  private runnerOf(name: string): HostedRunner {
    const runner = this.byName.get(name);
    if (!runner) throw new Error(`No processor named ${name} runs here`);
    return runner;
  }
}
