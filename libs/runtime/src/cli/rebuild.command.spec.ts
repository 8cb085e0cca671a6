import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { PgliteExecutor, type SqlExecutor } from '@switchyard/sql';
import { ProcessorRunner, type Projection, type ProjectionLogger } from '@switchyard/projection';
import { Command, CommanderError } from 'commander';
import { registerRebuildCommand, type RebuildCliContext } from './rebuild.command';

/** Keeps one row per event of its streams; enough to see a replay happen. */
const rowsProjection = (name: string): Projection => ({
  name,
  version: 1,
  async setup(tx) {
    await tx.exec(`CREATE TABLE IF NOT EXISTS ${name} (event_id text PRIMARY KEY)`);
  },
  async reset(tx) {
    await tx.query(`DELETE FROM ${name}`);
  },
  async apply(tx, events) {
    for (const event of events) {
      await tx.query(`INSERT INTO ${name} (event_id) VALUES ($1) ON CONFLICT DO NOTHING`, [event.eventId]);
    }
  },
  async countRecords(q) {
    const { rows } = await q.query<{ count: string }>(`SELECT count(*)::text AS count FROM ${name}`);
    return Number(rows[0]!.count);
  },
});

const silent: ProjectionLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('rebuild command', () => {
  let executor: SqlExecutor;
  let store: InMemoryEventStore;
  const projections = [rowsProjection('cli_activity'), rowsProjection('cli_queue')];
  let lines: string[];
  let errors: string[];
  let closed: number;

  beforeAll(async () => {
    executor = await PgliteExecutor.open();
    store = new InMemoryEventStore();
    await store.appendToStream(
      'pr-1',
      [
        { type: 'Opened', data: {} },
        { type: 'Merged', data: {} },
      ],
      {
        expectedRevision: 'no_stream',
      },
    );
    await store.appendToStream('pr-2', [{ type: 'Opened', data: {} }], { expectedRevision: 'no_stream' });
  });
  afterAll(() => executor.close());
  beforeEach(() => {
    lines = [];
    errors = [];
    closed = 0;
  });

  const run = async (...args: string[]): Promise<number> => {
    const program = new Command()
      .exitOverride()
      .configureOutput({ writeErr: (text) => errors.push(text), writeOut: () => undefined });
    const open = async (): Promise<RebuildCliContext> => ({
      executor,
      store,
      projections,
      close: async () => {
        closed++;
      },
    });
    registerRebuildCommand(program, open, (line) => lines.push(line));
    try {
      await program.parseAsync(args, { from: 'user' });
      return 0;
    } catch (error) {
      if (error instanceof CommanderError) return error.exitCode;
      throw error;
    }
  };
  const rows = async (name: string) => (await executor.query(`SELECT event_id FROM ${name}`)).rows.length;

  it('replays the named projection and prints a summary line', async () => {
    expect(await run('rebuild', 'cli_activity', '--batch-size', '2')).toBe(0);
    expect(await rows('cli_activity')).toBe(3);
    expect(lines).toEqual([
      expect.stringMatching(/^Rebuilt cli_activity \(v1\): 3 events, 3 records in \d+\.\d s/),
    ]);
    expect(closed).toBe(1);
  });

  it('--all rebuilds every projection, one summary each', async () => {
    expect(await run('rebuild', '--all')).toBe(0);
    expect(lines.map((line) => line.split(' ')[1])).toEqual(['cli_activity', 'cli_queue']);
    expect(await rows('cli_queue')).toBe(3);
  });

  it('an unknown name is a usage error (exit 2) that lists the known projections', async () => {
    expect(await run('rebuild', 'activty')).toBe(2);
    expect(errors.join('')).toContain(
      'Unknown projection "activty". Known projections: cli_activity, cli_queue',
    );
    expect(closed).toBe(1);
  });

  it.each([[['rebuild']], [['rebuild', 'cli_queue', '--all']]])(
    '%j is a usage error (exit 2)',
    async (args) => {
      expect(await run(...args)).toBe(2);
      expect(errors.join('')).toContain('Name one projection to rebuild, or pass --all');
    },
  );

  it('rebuilds while a runner serves the projection, which goes on in the rebuilt tables', async () => {
    const runner = new ProcessorRunner(projections[0]!, { executor, store, logger: silent });
    runner.start();
    try {
      expect(await runner.waitFor(await store.headPosition())).toBe(true);
      expect(await run('rebuild', 'cli_activity')).toBe(0);
      expect(lines).toEqual([expect.stringMatching(/^Rebuilt cli_activity \(v1\): 3 events, 3 records/)]);
      const { lastPosition } = await store.appendToStream('pr-3', [{ type: 'Opened', data: {} }], {
        expectedRevision: 'no_stream',
      });
      expect(await runner.waitFor(lastPosition)).toBe(true);
      expect(await rows('cli_activity')).toBe(4);
    } finally {
      await runner.stop();
    }
  });

  it('fails (exit 1) while another process rebuilds the same projection', async () => {
    const release = (await executor.acquireSessionLock('sy_rebuild:cli_queue'))!;
    try {
      expect(await run('rebuild', 'cli_queue')).toBe(1);
      expect(errors.join('')).toContain(
        'Rebuilding cli_queue failed: Projection cli_queue is already being rebuilt by another process',
      );
      expect(closed).toBe(1);
    } finally {
      await release();
    }
  });
});
