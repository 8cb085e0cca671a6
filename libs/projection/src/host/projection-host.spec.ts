import { isAtOrAfter } from '@switchyard/event-store';
import { describeEachDatabase } from '@switchyard/testing';
import { ProjectionRunner } from '../runner/projection-runner';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { tallyProjection } from '../test/tally-projection';
import { ProjectionHost } from './projection-host';

describeEachDatabase('ProjectionHost', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());

  it('runs every projection; a position is fresh once all of them include it; stopped, it times out', async () => {
    const prefix = uniqueName('host');
    const everything = tallyProjection({ name: `${prefix}_all`, streamPrefix: `${prefix}-` });
    const filtered = tallyProjection({
      name: `${prefix}_some`,
      streamPrefix: `${prefix}-`,
      eventTypes: [`${prefix}.Wanted`],
    });
    const host = ProjectionHost.of([everything, filtered], {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
    });
    host.start();
    try {
      expect(await host.waitFor(null)).toBe(true);
      const position = await appendTypes(env.store, `${prefix}-a`, [`${prefix}.Wanted`, `${prefix}.Other`]);
      expect(await host.waitFor(position)).toBe(true);
      for (const runner of host.runners) expect(isAtOrAfter(runner.position()!, position)).toBe(true);
      expect(host.status().map((status) => [status.name, status.lagging])).toEqual([
        [everything.name, false],
        [filtered.name, false],
      ]);
    } finally {
      await host.stop();
    }

    const later = await appendTypes(env.store, `${prefix}-a`, [`${prefix}.Other`]);
    expect(await host.waitFor(later, 50)).toBe(false);
  });

  it('is not fresh while one of its projections lags behind', async () => {
    const prefix = uniqueName('host');
    const running = new ProjectionRunner(
      tallyProjection({ name: `${prefix}_up`, streamPrefix: `${prefix}-` }),
      {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
      },
    );
    const idle = new ProjectionRunner(
      tallyProjection({ name: `${prefix}_idle`, streamPrefix: `${prefix}-` }),
      {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
      },
    );
    const host = new ProjectionHost([running, idle]);
    running.start();
    try {
      const position = await appendTypes(env.store, `${prefix}-a`, ['A']);
      expect(await running.waitFor(position)).toBe(true);
      expect(await host.waitFor(position, 50)).toBe(false);
    } finally {
      await host.stop();
    }
  });

  it('refuses two runners for the same projection', () => {
    const projection = tallyProjection({ name: uniqueName('host'), streamPrefix: 'x-' });
    const options = { executor: env.executor, store: env.store, logger: new RecordingLogger() };
    expect(() => ProjectionHost.of([projection, projection], options)).toThrow(/Two runners/);
  });
});
