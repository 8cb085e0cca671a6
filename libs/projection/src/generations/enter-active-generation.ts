import type { SqlQueryable } from '@switchyard/event-store';
import { readActiveGeneration } from './generation-table';
import { liveSchema, useGeneration } from './generation-schema';

/**
 * The first statements of every transaction that writes a projection's rows: locks its checkpoint
 * row, so that it waits while a blue-green switch is under way (the switch holds that lock) and a
 * switch waits for it, then points unqualified names at the generation serving now. Read after
 * the lock, the generation is the one committed last, never the one a switch is replacing.
 */
export async function enterActiveGeneration(tx: SqlQueryable, name: string): Promise<void> {
  await tx.query('SELECT 1 FROM sy_projection_checkpoints WHERE name = $1 FOR UPDATE', [name]);
  const active = await readActiveGeneration(tx, name);
  if (active) await useGeneration(tx, active.schema, await liveSchema(tx));
}
