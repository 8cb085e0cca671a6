import { Redis } from 'ioredis';
import { errorMessage, type ProjectionLogger } from '../logger';
import {
  batchedPublish,
  decodeCheckpointUpdates,
  type CheckpointSignal,
  type CheckpointUpdate,
} from './checkpoint-signal';

export const CHECKPOINT_REDIS_CHANNEL = 'switchyard:checkpoints';

/**
 * Checkpoint wake-ups over Redis pub/sub, for deployments that already run Redis for the other
 * wake-ups. Fire-and-forget: nothing is lost if Redis goes away, readers just wait longer.
 */
export class RedisCheckpointSignal implements CheckpointSignal {
  private readonly subscribers = new Set<Redis>();
  private readonly send = batchedPublish((payload) =>
    this.publisher.publish(CHECKPOINT_REDIS_CHANNEL, payload),
  );

  private constructor(
    private readonly publisher: Redis,
    private readonly ownsPublisher: boolean,
    private readonly logger?: ProjectionLogger,
  ) {}

  /** Opens (and owns) its own connection. */
  static connect(url: string, logger?: ProjectionLogger): RedisCheckpointSignal {
    const redis = new Redis(url);
    const signal = new RedisCheckpointSignal(redis, true, logger);
    signal.reportErrors(redis);
    return signal;
  }

  /** Publishes over a connection the caller owns; subscribers get duplicates of it. */
  static over(redis: Redis, logger?: ProjectionLogger): RedisCheckpointSignal {
    return new RedisCheckpointSignal(redis, false, logger);
  }

  publish(update: CheckpointUpdate): Promise<void> {
    return this.send(update);
  }

  async subscribe(onUpdate: (update: CheckpointUpdate) => void): Promise<() => Promise<void>> {
    // A connection in subscriber mode can do nothing else, hence one of its own.
    const subscriber = this.publisher.duplicate();
    this.reportErrors(subscriber);
    this.subscribers.add(subscriber);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== CHECKPOINT_REDIS_CHANNEL) return;
      for (const update of decodeCheckpointUpdates(message)) onUpdate(update);
    });
    await subscriber.subscribe(CHECKPOINT_REDIS_CHANNEL);
    return async () => {
      if (this.subscribers.delete(subscriber)) await subscriber.quit().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    await Promise.all(subscribers.map((subscriber) => subscriber.quit().catch(() => undefined)));
    if (this.ownsPublisher) await this.publisher.quit().catch(() => undefined);
  }

  /** ioredis reconnects by itself; without a listener its errors would be printed to the console. */
  private reportErrors(redis: Redis): void {
    redis.on('error', (error: unknown) =>
      this.logger?.warn(
        { channel: CHECKPOINT_REDIS_CHANNEL, error: errorMessage(error) },
        'Redis checkpoint signal',
      ),
    );
  }
}
