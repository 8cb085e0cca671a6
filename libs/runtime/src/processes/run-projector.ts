import type { SwitchyardConfig } from '@switchyard/platform';
import type { ProcessorHost } from '@switchyard/projection';
import type { Logger } from 'pino';
import { openRuntime } from '../runtime/open-runtime';

export interface RunningProjector {
  host: ProcessorHost;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Runs every projection from its checkpoint (one active runner per projection across replicas,
 * by advisory lock), with the reactors that feed the read models (pull-request reader, dequeue
 * requests, quarantine health), and announces each checkpoint so api processes answer
 * read-your-writes. The merge-queue engine runs in the engine process.
 */
export async function runProjector(config: SwitchyardConfig): Promise<RunningProjector> {
  const runtime = await openRuntime(config, { role: 'projector' });
  const host = runtime.processors;
  if (!host) throw new Error('The projector role runs no processors');
  runtime.logger.info({ storage: runtime.storage.description, projections: host.names }, 'projector running');
  return { host, logger: runtime.logger, close: () => runtime.close() };
}
