import type { ReadinessContributor } from '@switchyard/http';
import type { ProjectionHost } from '@switchyard/projection';

/** /readyz fails while a projection is failing, so an orchestrator stops routing reads to stale models. */
export const projectionReadiness = (host: ProjectionHost): ReadinessContributor => ({
  name: 'projections',
  async check() {
    const failing = host.status().filter((status) => status.lastError);
    if (failing.length) {
      throw new Error(failing.map((status) => `${status.name}: ${status.lastError}`).join('; '));
    }
  },
});
