import { createActivityLogProjection } from '@switchyard/activity-log';
import { authCredentialsProjection } from '@switchyard/auth';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import type { Projection } from '@switchyard/projection';
import { repositoryControlsLogMapping, repositoryControlsProjections } from '@switchyard/repository-controls';
import { testEngineProjections } from '@switchyard/test-engine';

/**
 * Every read model Switchyard serves. The activity log takes one mapping table per bounded
 * context; a context that adds events adds its table here.
 */
export function switchyardProjections(): Projection[] {
  return [
    authCredentialsProjection,
    ...repositoryControlsProjections,
    ...testEngineProjections,
    createActivityLogProjection([repositoryControlsLogMapping, mergeQueueLogMapping]),
  ];
}
