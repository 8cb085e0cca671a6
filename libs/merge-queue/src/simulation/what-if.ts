import type { QueuePolicy } from '../domain/policy';
import { simulate, simulationInSlices, type SimulationResult } from './simulate';
import type { Workload } from './workload';

/** The workload `switchyard simulate` assumes when a flag is left out, as a user would type it. */
export const WHAT_IF_DEFAULTS = {
  arrivals: '20/h',
  ci: '30m±20%',
  failure: '5%',
  flaky: '1%',
  hours: 24,
  seed: 1,
} as const;

/** A what-if's workload; `scopes`: each pull request touches 1 or 2 of this many scopes. */
export type WhatIfSettings = Omit<Workload, 'scopes'> & { scopes?: number };

/** The workload of a what-if for a policy: 4 scopes unless the queue is serial or a count is given. */
export function whatIfWorkload(policy: QueuePolicy, settings: WhatIfSettings): Workload {
  const { scopes: count, ...workload } = settings;
  const scopes = count ?? (policy.mergeQueue.mode === 'serial' ? undefined : 4);
  return { ...workload, scopes: scopes ? { count: scopes } : null };
}

const WHAT_IF_SAMPLES = 60;

/** What `switchyard simulate` reports: the engine run on the workload, 60 queue-length samples. */
export const runWhatIf = (policy: QueuePolicy, workload: Workload): SimulationResult =>
  simulate(policy, workload, { samples: WHAT_IF_SAMPLES });

/** `runWhatIf` in slices: the same result, with a `yield` every few simulated events. */
export const whatIfInSlices = (policy: QueuePolicy, workload: Workload) =>
  simulationInSlices(policy, workload, { samples: WHAT_IF_SAMPLES });
