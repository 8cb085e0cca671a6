import type { Projection } from '@switchyard/projection';
import { mergeQueuePauseProjection } from './merge-queue-pause.projection';
import { scheduledFreezeProjection } from './scheduled-freeze.projection';

/** Every read model this bounded context owns, for the projection runner. */
export const repositoryControlsProjections: readonly Projection[] = [
  mergeQueuePauseProjection,
  scheduledFreezeProjection,
];
