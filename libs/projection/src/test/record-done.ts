import type { Decider } from '@switchyard/kernel';

export interface Done {
  type: string;
  data: { source: string };
}

/** Records every command it is given, even twice: only the idempotency key can keep a copy out. */
export const recordDone = (type: string): Decider<null, { source: string }, Done> => ({
  initialState: () => null,
  evolve: (state) => state,
  decide: (command) => [{ type, data: { source: command.source } }],
});
