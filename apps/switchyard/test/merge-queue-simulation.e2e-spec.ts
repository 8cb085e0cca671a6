import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerSimulateCommand } from '../../cli/src/commands/simulate.command';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

const CONFIGURATION = [
  'queue_rules:',
  '  - name: default',
  '    batch_size: 3',
  'merge_queue:',
  '  max_parallel_checks: 2',
  '',
].join('\n');

/** `switchyard simulate`'s output for a configuration text and flags. */
async function cliReport(configuration: string, ...flags: string[]): Promise<string[]> {
  const file = join(await mkdtemp(join(tmpdir(), 'simulation-')), '.mergify.yml');
  await writeFile(file, configuration);
  const lines: string[] = [];
  const program = new Command().exitOverride();
  registerSimulateCommand(program, (line) => lines.push(line));
  await program.parseAsync(['node', 'switchyard', 'simulate', '--config', file, ...flags]);
  return lines;
}

/** The throughput estimate of `switchyard simulate`, for a configuration text over HTTP. */
describe('merge-queue simulation (all-in-one app)', () => {
  let app: TestApp;
  const path = () => `/v1/repos/${uniqueRepository('simulation')}/merge-queue/simulation`;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);
  afterAll(() => app?.close());

  it('answers what switchyard simulate reports for the same configuration and workload', async () => {
    const answer = await app.request('POST', path(), {
      body: { mergify_yml: CONFIGURATION, arrivals: '6/h', ci: '20m±10%' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.report).toEqual(
      await cliReport(CONFIGURATION, '--arrivals', '6/h', '--ci', '20m±10%'),
    );
    expect(answer.body.workload).toEqual({
      arrivals: '6/h',
      ci: '20m±10%',
      failure: '5%',
      flaky: '1%',
      hours: 24,
      seed: 1,
    });
    expect(answer.body.merged).toBeGreaterThan(0);
    expect(answer.body.merged_per_hour).toBeCloseTo(answer.body.merged / 24, 6);
    expect(answer.body.report[0]).toContain('Policy: mode serial, max_parallel_checks 2, batch_size 3');
  });

  it('refuses an invalid configuration as configuration-simulator does, and a malformed workload with a detail', async () => {
    const invalid = await app.request('POST', path(), {
      body: { mergify_yml: 'queue_rules:\n  - name: default\n    batch_size: many\n' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0]).toMatchObject({
      type: 'mergify_config_error',
      loc: ['body', 'mergify_yml'],
      ctx: { path: 'queue_rules[0].batch_size', line: 3 },
    });
    const malformed = await app.request('POST', path(), {
      body: { mergify_yml: CONFIGURATION, arrivals: 'lots' },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toMatch(/^arrivals: expected a rate such as "20\/h"/);
    const heavy = await app.request('POST', path(), {
      body: { mergify_yml: CONFIGURATION, arrivals: '5000/h' },
    });
    expect(heavy.status).toBe(422);
    expect(heavy.body.detail).toBe('arrivals: at most 120/h, got "5000/h"');
  });
});
