import type { Position } from '@switchyard/event-store';

/**
 * The checkpoint was not where this writer left it: another writer moved it (or bumped the
 * version). The caller rolls back, reloads the checkpoint and continues from there.
 */
export class CheckpointConflictError extends Error {
  constructor(
    readonly projection: string,
    readonly expected: { version: number; position: Position | 'start' },
    readonly actual: { version: number; position: Position | 'start' } | null,
  ) {
    const found = actual ? `v${actual.version} at ${actual.position}` : 'no checkpoint';
    super(
      `Checkpoint of ${projection} moved: expected v${expected.version} at ${expected.position}, found ${found}`,
    );
    this.name = 'CheckpointConflictError';
  }
}
