import type { Projection } from '../projection';
import type { Reactor } from './reactor';

/**
 * Anything the runner runs from a checkpoint: a projection (rows and checkpoint in one
 * transaction) or a reactor (side effects, then the checkpoint). Declaring one of either is all a
 * new read model or process manager needs; the host wires the rest.
 */
export type Processor = Projection | Reactor;

export const isReactor = (processor: Processor): processor is Reactor => 'react' in processor;
