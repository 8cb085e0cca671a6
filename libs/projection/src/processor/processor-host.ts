import { comparePositions, type Position } from '@switchyard/event-store';
import { ReadModelStoppedError, type ReadModelFreshness } from '../freshness';
import type { Processor } from './processor';
import { ProcessorRunner, type ProcessorRunnerOptions } from './processor-runner';
import type { ProcessorStatus } from './processor-status';

/**
 * Runs a set of processors in this process and answers read-your-writes for them, per read model:
 * a wait covers only the processors it names, so one that lags, rebuilds or has stopped delays
 * only its own readers. Each runner wakes its own waiters on commit, so nothing here polls.
 */
export class ProcessorHost implements ReadModelFreshness {
  private readonly byName = new Map<string, ProcessorRunner>();

  constructor(
    readonly runners: readonly ProcessorRunner[],
    private readonly defaultTimeoutMs = 5000,
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
  }

  async stop(): Promise<void> {
    await Promise.all(this.runners.map((runner) => runner.stop()));
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

  runner(name: string): ProcessorRunner | undefined {
    return this.byName.get(name);
  }

  status(): ProcessorStatus[] {
    return this.runners.map((runner) => runner.status());
  }

  private runnerOf(name: string): ProcessorRunner {
    const runner = this.byName.get(name);
    if (!runner) throw new Error(`No processor named ${name} runs here`);
    return runner;
  }
}
