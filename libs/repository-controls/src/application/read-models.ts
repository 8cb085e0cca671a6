import { mergeQueuePauseProjection } from '../projections/merge-queue-pause.projection';
import { scheduledFreezeProjection } from '../projections/scheduled-freeze.projection';

/*
 * The processors each query of this context serves from. A write waits only for the read models
 * of the reads that follow it, so a lagging freeze projection never slows a pause. The activity
 * log is not among them: its reads catch up to the head themselves (ActivityLogQueries).
 */

/** GET merge-queue/pause and the legacy queue/pause. */
export const PAUSE_READ_MODELS: readonly string[] = [mergeQueuePauseProjection.name];

/** GET scheduled_freeze, and the freeze calendar the merge queue consults. */
export const FREEZE_READ_MODELS: readonly string[] = [scheduledFreezeProjection.name];
