import type { Position } from '@switchyard/event-store';
import type { ReadModelFreshness } from '../freshness';
import type { Projection } from '../projection';
import { ProjectionRunner, type ProjectionRunnerOptions } from '../runner/projection-runner';
import type { ProjectionStatus } from '../runner/projection-status';

/**
 * Runs a set of projections in this process and answers read-your-writes for them: a position is
 * fresh once every runner's committed checkpoint has reached it. Each runner wakes its own
 * waiters on commit, so nothing here polls.
 */
export class ProjectionHost implements ReadModelFreshness {
  private readonly byName = new Map<string, ProjectionRunner>();

  constructor(
    readonly runners: readonly ProjectionRunner[],
    private readonly defaultTimeoutMs = 5000,
  ) {
    for (const runner of runners) {
      if (this.byName.has(runner.name)) throw new Error(`Two runners for projection ${runner.name}`);
      this.byName.set(runner.name, runner);
    }
  }

  static of(projections: readonly Projection[], options: ProjectionRunnerOptions): ProjectionHost {
    return new ProjectionHost(
      projections.map((projection) => new ProjectionRunner(projection, options)),
      options.defaultWaitTimeoutMs,
    );
  }

  start(): void {
    for (const runner of this.runners) runner.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.runners.map((runner) => runner.stop()));
  }

  async waitFor(position: Position | null, timeoutMs = this.defaultTimeoutMs): Promise<boolean> {
    if (position === null) return true;
    const reached = await Promise.all(this.runners.map((runner) => runner.waitFor(position, timeoutMs)));
    return reached.every(Boolean);
  }

  runner(name: string): ProjectionRunner | undefined {
    return this.byName.get(name);
  }

  status(): ProjectionStatus[] {
    return this.runners.map((runner) => runner.status());
  }
}
