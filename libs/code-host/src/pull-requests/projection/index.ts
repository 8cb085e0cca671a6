import type { Projection } from '@switchyard/projection';
import { installedRepositoriesProjection } from './installed-repositories.projection';
import { pullRequestSnapshotsProjection } from './pull-request-snapshots.projection';

/** Every read model the code host keeps, for the projection runner. */
export const codeHostProjections: readonly Projection[] = [
  pullRequestSnapshotsProjection,
  installedRepositoriesProjection,
];

export { installedRepositoriesProjection, pullRequestSnapshotsProjection };
