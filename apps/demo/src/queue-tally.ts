import type { QueueProgress } from './demo-output';
import type { LogEvent } from './queue-narrator';

/**
 * Which of the demo's pull requests are in the queue and which have left it, from the activity
 * log's enter and leave events. The queue has drained once every one left and none came back.
 */
export class QueueTally {
  private readonly queued = new Set<number>();
  private readonly left = new Map<number, { merged: boolean; code: string | null }>();
  /** The pull requests in the order they first entered the queue. */
  readonly entryOrder: number[] = [];

  constructor(private readonly pullRequests: readonly number[]) {}

  record(event: LogEvent): void {
    const number = event.pull_request;
    if (number === null || !this.pullRequests.includes(number)) return;
    if (event.type === 'action.queue.enter') {
      if (!this.entryOrder.includes(number)) this.entryOrder.push(number);
      this.queued.add(number);
      this.left.delete(number);
    } else if (event.type === 'action.queue.leave') {
      this.queued.delete(number);
      const code = event.metadata.dequeue_code;
      this.left.set(number, {
        merged: event.metadata.merged === true,
        code: typeof code === 'string' ? code : null,
      });
    }
  }

  drained(): boolean {
    return this.queued.size === 0 && this.pullRequests.every((n) => this.left.has(n));
  }

  unsettled(): number[] {
    return this.pullRequests.filter((n) => this.queued.has(n) || !this.left.has(n));
  }

  dequeueCodeOf(number: number): string | null {
    const left = this.left.get(number);
    return left && !left.merged ? left.code : null;
  }

  progress(): QueueProgress {
    const departures = [...this.left.values()];
    return {
      settled: departures.length,
      total: this.pullRequests.length,
      merged: departures.filter((d) => d.merged).length,
      dequeued: departures.filter((d) => !d.merged).length,
    };
  }
}
