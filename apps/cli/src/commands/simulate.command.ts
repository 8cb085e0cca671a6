import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { validateConfiguration } from '@switchyard/mergify-config';
import {
  defaultQueuePolicy,
  formatSimulationReport,
  parseArrivals,
  parseCiDuration,
  parseRate,
  runWhatIf,
  type QueueMode,
  type QueuePolicy,
  WHAT_IF_DEFAULTS,
  whatIfWorkload,
} from '@switchyard/merge-queue';
import { queuePolicyFromConfiguration } from '@switchyard/merge-queue/application/policy-from-configuration';

export type Print = (line: string) => void;

const printToStdout: Print = (line) => process.stdout.write(`${line}\n`);

/** Commander parsers that turn a parse error into a usage error naming the flag. */
const parsing =
  <T>(parse: (text: string) => T) =>
  (text: string): T => {
    try {
      return parse(text);
    } catch (error) {
      throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
    }
  };

/**
 * An option whose default is written as a user would type it: the help shows `(default: 20/h)`,
 * where commander would print the parsed value as JSON.
 */
const parsedOption = <T>(flags: string, description: string, parse: (text: string) => T, typed: string) =>
  new Option(flags, description).argParser(parsing(parse)).default(parse(typed), typed);

const positiveInteger = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
};

const nonNegativeInteger = (value: string): number => {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a whole number');
  return Number(value);
};

const positiveNumber = (value: string): number => {
  const parsed = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || parsed <= 0) throw new InvalidArgumentError('expected a positive number');
  return parsed;
};

interface SimulateOptions {
  config?: string;
  arrivals: ReturnType<typeof parseArrivals>;
  ci: ReturnType<typeof parseCiDuration>;
  failure: number;
  flaky: number;
  hours: number;
  seed: number;
  scopes?: number;
  mode?: QueueMode;
  maxParallelChecks?: number;
  batchSize?: number;
  retries?: number;
  skipIntermediateResults?: boolean;
}

async function policyFrom(options: SimulateOptions): Promise<QueuePolicy> {
  let policy = defaultQueuePolicy();
  if (options.config) {
    const validation = validateConfiguration(await readFile(options.config, 'utf8'), new Date());
    if (!validation.valid) {
      const problems = validation.errors.map((e) => `  ${e.pathText}: ${e.message}`).join('\n');
      throw new Error(`${options.config} is not a valid configuration:\n${problems}`);
    }
    policy = queuePolicyFromConfiguration(validation.configuration);
  }
  // Flags override the file, so one configuration can be tried with other settings.
  const mergeQueue = { ...policy.mergeQueue };
  if (options.mode) mergeQueue.mode = options.mode;
  if (options.maxParallelChecks) mergeQueue.maxParallelChecks = options.maxParallelChecks;
  if (options.skipIntermediateResults !== undefined)
    mergeQueue.skipIntermediateResults = options.skipIntermediateResults;
  const [first, ...rest] = policy.rules;
  const rule = { ...first! };
  if (options.batchSize) rule.batchSize = options.batchSize;
  if (options.retries !== undefined) rule.maxChecksRetries = options.retries;
  return { mergeQueue, rules: [rule, ...rest] };
}

/**
 * `simulate`: what a configuration would do for a team's workload, on a virtual clock (seconds of
 * wall-clock time for a day of traffic). The first queue rule takes every pull request.
 */
export function registerSimulateCommand(program: Command, print: Print = printToStdout): void {
  program
    .command('simulate')
    .description(
      'What-if: run the merge-queue engine on a simulated workload and report throughput, latency and CI cost',
    )
    .option('--config <file>', 'a .mergify.yml whose merge queue settings to simulate')
    .addOption(
      parsedOption(
        '--arrivals <rate>',
        'pull requests arriving, e.g. 20/h, 150/d or burst:40',
        parseArrivals,
        WHAT_IF_DEFAULTS.arrivals,
      ),
    )
    .addOption(
      parsedOption(
        '--ci <duration>',
        'CI duration, e.g. 30m±20% or 2h+-10%',
        parseCiDuration,
        WHAT_IF_DEFAULTS.ci,
      ),
    )
    .addOption(
      parsedOption(
        '--failure <rate>',
        'share of pull requests that are really broken',
        (t) => parseRate('failure', t),
        WHAT_IF_DEFAULTS.failure,
      ),
    )
    .addOption(
      parsedOption(
        '--flaky <rate>',
        'share of CI runs failing for nothing',
        (t) => parseRate('flaky', t),
        WHAT_IF_DEFAULTS.flaky,
      ),
    )
    .option('--hours <hours>', 'simulated hours of arrivals', positiveNumber, WHAT_IF_DEFAULTS.hours)
    .option('--seed <seed>', 'random seed (same seed, same run)', nonNegativeInteger, WHAT_IF_DEFAULTS.seed)
    .option('--scopes <count>', 'each pull request touches 1 or 2 of this many scopes', positiveInteger)
    .addOption(
      new Option('--mode <mode>', 'override merge_queue.mode').choices(['serial', 'parallel', 'isolated']),
    )
    .option('--max-parallel-checks <n>', 'override merge_queue.max_parallel_checks', positiveInteger)
    .option('--batch-size <n>', 'override batch_size of the first queue rule', positiveInteger)
    .option('--retries <n>', 'override max_checks_retries of the first queue rule', nonNegativeInteger)
    .option('--skip-intermediate-results', 'override merge_queue.skip_intermediate_results to true')
    .action(async (options: SimulateOptions) => {
      const policy = await policyFrom(options);
      const workload = whatIfWorkload(policy, {
        arrivals: options.arrivals,
        ci: options.ci,
        failureRate: options.failure,
        flakeRate: options.flaky,
        hours: options.hours,
        seed: options.seed,
        ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
      });
      const result = runWhatIf(policy, workload);
      for (const line of formatSimulationReport(result, policy, workload)) print(line);
    });
}
