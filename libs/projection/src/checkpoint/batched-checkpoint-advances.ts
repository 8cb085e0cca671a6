import { BatchedCalls } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import { advanceCheckpoint, type CheckpointMove } from './checkpoint-store';

/**
 * Moves checkpoints that move alone (no rows with them: a processor reading past events it does
 * not take, a reactor after its reaction) for every processor of the process in one statement per
 * turn of the event loop: after an append, most processors only move past it, and each used to
 * cost its own UPDATE. Every move is
 * still a compare-and-set on its own row; one that finds its row elsewhere is retried alone, which
 * throws the CheckpointConflictError naming what it found.
 */
export class BatchedCheckpointAdvances {
  private readonly calls: BatchedCalls<CheckpointMove, boolean>;

  constructor(private readonly executor: SqlQueryable) {
    this.calls = new BatchedCalls((moves) => this.moveAll(moves));
  }

  async advance(move: CheckpointMove): Promise<void> {
    if (await this.calls.call(move)) return;
    await advanceCheckpoint(this.executor, move);
  }

  private async moveAll(moves: readonly CheckpointMove[]): Promise<boolean[]> {
    const { rows } = await this.executor.query<{ name: string }>(
      `UPDATE sy_projection_checkpoints c SET position = m.to_position, updated_at = now(), failure = NULL
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[]) AS m(name, version, from_position, to_position)
       WHERE c.name = m.name AND c.version = m.version AND c.position = m.from_position
       RETURNING c.name`,
      [
        moves.map((m) => m.name),
        moves.map((m) => m.version),
        moves.map((m) => m.from),
        moves.map((m) => m.to),
      ],
    );
    const moved = new Set(rows.map((row) => row.name));
    // A name twice in one batch (never from one runner, which waits for each move) has moved at most
    // once: all but its first are retried alone.
    const seen = new Set<string>();
    return moves.map((move) => {
      const first = !seen.has(move.name);
      seen.add(move.name);
      return first && moved.has(move.name);
    });
  }
}

const byExecutor = new WeakMap<SqlQueryable, BatchedCheckpointAdvances>();

/** One batcher per database: every processor of the process that writes its checkpoints there shares it. */
export function checkpointAdvancesOn(executor: SqlQueryable): BatchedCheckpointAdvances {
  let advances = byExecutor.get(executor);
  if (!advances) byExecutor.set(executor, (advances = new BatchedCheckpointAdvances(executor)));
  return advances;
}
