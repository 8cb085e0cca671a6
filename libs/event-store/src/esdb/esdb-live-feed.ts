import type {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  Position as EsdbPosition,
} from '@eventstore/db-client';

export type LiveItem =
  | { kind: 'event'; resolved: AllStreamResolvedEvent }
  /** The server says we have everything it has (23.10+ servers). */
  | { kind: 'caughtUp' }
  /** The filtered subscription has looked at everything up to here. */
  | { kind: 'checkpoint'; position: EsdbPosition };

const HIGH_WATER = 256;
const LOW_WATER = 64;

/**
 * Turns the client's push-style subscription (a Node stream emitting 'data', 'caughtUp' and
 * checkpoint callbacks) into pull-based items, in the order the server sent them, with
 * back-pressure: the stream is paused while the consumer is HIGH_WATER items behind.
 *
 * Ordering is the subtle part: 'caughtUp' and checkpoints are signalled while earlier events may
 * still sit in the stream's own buffer (paused, not yet emitted as 'data'). Every event the stream
 * has produced is either received here or still in that buffer, so `received + readableLength` is
 * the number of events that precede the marker; the marker is queued once that many have arrived.
 * A checkpoint queued too early would let the subscriber checkpoint past events it never saw.
 */
export class LiveFeed {
  private readonly queue: LiveItem[] = [];
  private readonly pendingMarkers: Array<{ after: number; item: LiveItem }> = [];
  private received = 0;
  private failure: unknown = null;
  private ended = false;
  private wake: (() => void) | null = null;
  private subscription: AllStreamSubscription | null = null;

  /** Wire the subscription; separate from the constructor because its filter needs onCheckpoint first. */
  attach(subscription: AllStreamSubscription): void {
    this.subscription = subscription;
    subscription.on('data', (resolved: AllStreamResolvedEvent) => {
      this.received += 1;
      this.queue.push({ kind: 'event', resolved });
      this.releaseMarkers();
      if (this.queue.length >= HIGH_WATER) subscription.pause();
      this.signal();
    });
    subscription.on('caughtUp', () => this.marker({ kind: 'caughtUp' }));
    subscription.on('error', (error: unknown) => {
      this.failure = error;
      this.signal();
    });
    subscription.on('end', () => this.finish());
    subscription.on('close', () => this.finish());
  }

  /** Handed to the server filter's checkpointReached. */
  onCheckpoint(position: EsdbPosition): void {
    this.marker({ kind: 'checkpoint', position });
  }

  /** The next item; null once the subscription ended or the signal aborted. Throws what the stream failed with. */
  async next(signal: AbortSignal): Promise<LiveItem | null> {
    for (;;) {
      const item = this.queue.shift();
      if (item) {
        if (this.queue.length <= LOW_WATER && this.subscription?.isPaused()) this.subscription.resume();
        return item;
      }
      if (this.failure) throw this.failure;
      if (this.ended || signal.aborted) return null;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          this.wake = null;
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** True when everything received so far has been handed out. */
  isDrained(): boolean {
    return (
      this.queue.length === 0 &&
      this.pendingMarkers.length === 0 &&
      (this.subscription?.readableLength ?? 0) === 0
    );
  }

  async close(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    if (!subscription) return;
    subscription.removeAllListeners('data');
    // A late error from a cancelled call must not become an unhandled 'error' event.
    subscription.on('error', () => undefined);
    await subscription.unsubscribe().catch(() => undefined);
  }

  private marker(item: LiveItem): void {
    const after = this.received + (this.subscription?.readableLength ?? 0);
    if (after <= this.received) this.queue.push(item);
    else this.pendingMarkers.push({ after, item });
    this.signal();
  }

  private releaseMarkers(): void {
    while (this.pendingMarkers.length > 0 && this.pendingMarkers[0]!.after <= this.received) {
      this.queue.push(this.pendingMarkers.shift()!.item);
    }
  }

  private finish(): void {
    this.ended = true;
    this.signal();
  }

  private signal(): void {
    this.wake?.();
  }
}
