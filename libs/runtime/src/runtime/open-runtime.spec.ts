import { IN_MEMORY_DATA_DIR, loadConfig } from '@switchyard/platform';
import { openRuntime } from './open-runtime';

/** Issue 32 defect 5: a CLI command must never run the engine (nor any reactor or timer). */
describe('openRuntime for the cli role', () => {
  jest.setTimeout(120_000);

  it('runs only the projections its commands wait on: no reactor, no timer, no code host', async () => {
    const runtime = await openRuntime(
      loadConfig({ SWITCHYARD_DATA_DIR: IN_MEMORY_DATA_DIR, LOG_LEVEL: 'silent' }),
      { role: 'cli' },
    );
    try {
      const kinds = new Set(runtime.processors!.status().map((status) => status.kind));
      expect([...kinds]).toEqual(['projection']);
      expect(runtime.processors!.names.sort()).toEqual(runtime.projections.map((p) => p.name).sort());
      expect(runtime.mergeQueue).toBeNull();
      expect(runtime.codeHost).toBeNull();
    } finally {
      await runtime.close();
    }
  });

  it('the all-in-one runs the engine: its reactors and its timer, a periodic processor', async () => {
    const runtime = await openRuntime(
      loadConfig({ SWITCHYARD_DATA_DIR: IN_MEMORY_DATA_DIR, LOG_LEVEL: 'silent' }),
      { role: 'all-in-one' },
    );
    try {
      const names = runtime.processors!.names;
      expect(names).toEqual(
        expect.arrayContaining(['merge_queue.intake', 'merge_queue.effects', 'merge_queue.timer']),
      );
      expect(runtime.processors!.runner('merge_queue.timer')!.status().kind).toBe('periodic');
    } finally {
      await runtime.close();
    }
  });
});
