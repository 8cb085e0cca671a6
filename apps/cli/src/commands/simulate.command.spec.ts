import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerSimulateCommand } from './simulate.command';

describe('simulate command', () => {
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
    registerSimulateCommand(program, (line) => lines.push(line));
    await program.parseAsync(['node', 'switchyard', 'simulate', ...args]);
    return lines;
  };

  it('reports throughput, time to merge, CI cost and a queue-length chart for a configuration file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'simulate-'));
    const config = join(directory, '.mergify.yml');
    await writeFile(
      config,
      'queue_rules:\n  - name: default\n    batch_size: 3\nmerge_queue:\n  max_parallel_checks: 2\n',
    );
    const lines = await run(
      '--config',
      config,
      '--arrivals',
      '6/h',
      '--ci',
      '20m±10%',
      '--failure',
      '5%',
      '--hours',
      '6',
    );
    const text = lines.join('\n');
    expect(text).toContain('Policy: mode serial, max_parallel_checks 2, batch_size 3');
    expect(text).toMatch(/Throughput\s+\d+\.\d\d merged PR\/h/);
    expect(text).toMatch(/Time to merge\s+p50 \d+ min, p95 \d+ min/);
    expect(text).toMatch(/CI runs per merged PR \d+\.\d\d/);
    expect(text).toContain('Broken main           0');
    expect(lines.filter((line) => line.includes('│'))).toHaveLength(6);
  });

  it('gives the same report for the same seed', async () => {
    const args = ['--arrivals', '10/h', '--hours', '4', '--seed', '3', '--batch-size', '2'];
    expect(await run(...args)).toEqual(await run(...args));
  });

  it('refuses malformed rates and durations with the expected form', async () => {
    await expect(run('--arrivals', '20 per hour')).rejects.toThrow(/expected a rate such as "20\/h"/);
    await expect(run('--ci', '30 minutes')).rejects.toThrow(/expected a duration such as "30m"/);
    await expect(run('--failure', '120%')).rejects.toThrow(/below 100%/);
  });

  it('refuses an invalid configuration with its problems', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'simulate-'));
    const config = join(directory, '.mergify.yml');
    await writeFile(config, 'queue_rules:\n  - name: default\n    batch_size: 0\n');
    await expect(run('--config', config)).rejects.toThrow(
      /is not a valid configuration:\n {2}queue_rules\[0\]\.batch_size/,
    );
  });

  it('shows its defaults in --help as they are typed, not as parsed values', () => {
    const program = new Command();
    registerSimulateCommand(program, () => undefined);
    const help = program.commands.find((command) => command.name() === 'simulate')!.helpInformation();
    const flat = help.replace(/\s+/g, ' ');
    expect(flat).toContain('(default: 20/h)');
    expect(flat).toContain('(default: 30m±20%)');
    expect(flat).toContain('(default: 5%)');
    expect(flat).toContain('(default: 1%)');
    expect(help).not.toMatch(/[{}]/);
  });

  it('runs with those defaults when no flag is given', async () => {
    const lines = await run('--hours', '2');
    expect(lines.join('\n')).toMatch(/Throughput\s+\d+\.\d\d merged PR\/h/);
  });
});
