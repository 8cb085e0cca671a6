import type { SqlExecutor } from '@switchyard/sql';
import {
  batchedPublish,
  decodeCheckpointUpdates,
  type CheckpointSignal,
  type CheckpointUpdate,
} from './checkpoint-signal';

export const CHECKPOINT_NOTIFY_CHANNEL = 'sy_checkpoints';

/**
 * Checkpoint wake-ups over PostgreSQL LISTEN/NOTIFY: needs nothing but the database the read
 * models already live in (PGlite delivers them in-process).
 */
export class PgNotifyCheckpointSignal implements CheckpointSignal {
  private readonly send: (update: CheckpointUpdate) => Promise<void>;

  constructor(private readonly executor: SqlExecutor) {
    this.send = batchedPublish((payload) =>
      this.executor.query('SELECT pg_notify($1, $2)', [CHECKPOINT_NOTIFY_CHANNEL, payload]),
    );
  }

  publish(update: CheckpointUpdate): Promise<void> {
    return this.send(update);
  }

  subscribe(onUpdate: (update: CheckpointUpdate) => void): Promise<() => Promise<void>> {
    return this.executor.listen(CHECKPOINT_NOTIFY_CHANNEL, (payload) => {
      for (const update of decodeCheckpointUpdates(payload)) onUpdate(update);
    });
  }
}
