import type { SqlExecutor } from '@switchyard/sql';
import {
  decodeCheckpointUpdate,
  encodeCheckpointUpdate,
  type CheckpointSignal,
  type CheckpointUpdate,
} from './checkpoint-signal';

export const CHECKPOINT_NOTIFY_CHANNEL = 'sy_checkpoints';

/**
 * Checkpoint wake-ups over PostgreSQL LISTEN/NOTIFY: needs nothing but the database the read
 * models already live in (PGlite delivers them in-process).
 */
export class PgNotifyCheckpointSignal implements CheckpointSignal {
  constructor(private readonly executor: SqlExecutor) {}

  async publish(update: CheckpointUpdate): Promise<void> {
    await this.executor.query('SELECT pg_notify($1, $2)', [
      CHECKPOINT_NOTIFY_CHANNEL,
      encodeCheckpointUpdate(update),
    ]);
  }

  subscribe(onUpdate: (update: CheckpointUpdate) => void): Promise<() => Promise<void>> {
    return this.executor.listen(CHECKPOINT_NOTIFY_CHANNEL, (payload) => {
      const update = decodeCheckpointUpdate(payload);
      if (update) onUpdate(update);
    });
  }
}
