/** One pause stream per repository: the pause is repository-wide, not per branch. */
export const mergeQueuePauseStreamId = (repository: string): string => `merge_queue_pause-${repository}`;
