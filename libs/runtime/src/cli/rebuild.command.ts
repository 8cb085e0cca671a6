import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import type { EventStore } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { rebuildBlueGreen, type Projection, type RebuildResult } from '@switchyard/projection';

/** What `rebuild` needs; the CLI main opens it per run (storage, the list of projections). */
export interface RebuildCliContext {
  /** The read-model database. */
  executor: SqlExecutor;
  store: EventStore;
  projections: Projection[];
  close(): Promise<void>;
}

export type Print = (line: string) => void;

const printToStdout: Print = (line) => process.stdout.write(`${line}\n`);

/** Exit code for a command line that names no (known) projection. */
const USAGE = 2;

const positiveInteger = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a positive integer');
  }
  return Number(value);
};

const thousands = (value: number): string => Math.round(value).toLocaleString('en-US');

const rateOf = (events: number, seconds: number): number => (seconds > 0 ? events / seconds : 0);

export const rebuildSummary = (result: RebuildResult): string => {
  const records = result.records === undefined ? '' : `, ${thousands(result.records)} records`;
  return (
    `Rebuilt ${result.projection} (v${result.version}): ${thousands(result.events)} events${records} ` +
    `in ${result.seconds.toFixed(1)} s (${thousands(rateOf(result.events, result.seconds))} events/s)`
  );
};

/**
 * The bar goes to stderr, where cli-progress draws only on a terminal, so piped output and logs
 * keep just the summary lines. The total is unknown when the store cannot count (EventStoreDB).
 */
function progressBar(projection: string): { update(done: number, total: number | null): void; stop(): void } {
  const started = performance.now();
  let bar: SingleBar | null = null;
  return {
    update(done, total) {
      const rate = thousands(rateOf(done, (performance.now() - started) / 1000));
      if (!bar) {
        const format =
          total === null
            ? '{projection} {value} events | {rate} events/s'
            : '{projection} [{bar}] {percentage}% | {value}/{total} events | {rate} events/s | ETA {eta_formatted}';
        bar = new SingleBar({ format, hideCursor: true, stream: process.stderr });
        bar.start(total ?? 0, done, { projection, rate });
        return;
      }
      // Events appended while the rebuild runs are replayed too: let the total grow with them.
      if (total !== null && done > bar.getTotal()) bar.setTotal(done);
      bar.update(done, { rate });
    },
    stop() {
      bar?.stop();
    },
  };
}

/**
 * `rebuild <projection>` and `rebuild --all`: replay a projection from the first event into new
 * tables while the current ones keep serving, then switch readers over (blue-green), with a
 * progress bar and a summary line each. Safe while the service runs: its runner keeps serving and
 * continues in the new tables after the switch. Fails (exit 1) while another rebuild of the same
 * projection runs; an unknown name is a usage error (exit 2) that lists the known ones.
 */
export function registerRebuildCommand(
  program: Command,
  open: () => Promise<RebuildCliContext>,
  print: Print = printToStdout,
): Command {
  return program
    .command('rebuild')
    .description(
      "Rebuild a projection's read model beside the one serving, then switch to it (safe while the service runs)",
    )
    .argument('[projection]', 'name of the projection to rebuild')
    .option('--all', 'rebuild every projection, one after the other')
    .option('--batch-size <events>', 'events per page and transaction', positiveInteger, 2000)
    .action(
      async (name: string | undefined, options: { all?: boolean; batchSize: number }, command: Command) => {
        if (Boolean(name) === Boolean(options.all)) {
          command.error('Name one projection to rebuild, or pass --all', {
            exitCode: USAGE,
            code: 'switchyard.usage',
          });
        }
        const context = await open();
        let failure: { message: string; exitCode: number; code: string } | null = null;
        try {
          const known = context.projections.map((projection) => projection.name);
          const chosen = options.all
            ? context.projections
            : context.projections.filter((projection) => projection.name === name);
          if (chosen.length === 0) {
            failure = {
              message: `Unknown projection "${name}". Known projections: ${known.join(', ') || '(none)'}`,
              exitCode: USAGE,
              code: 'switchyard.unknownProjection',
            };
          }
          for (const projection of failure ? [] : chosen) {
            const bar = progressBar(projection.name);
            try {
              const result = await rebuildBlueGreen({
                executor: context.executor,
                store: context.store,
                projection,
                batchSize: options.batchSize,
                onProgress: (done, total) => bar.update(done, total),
              });
              bar.stop();
              print(rebuildSummary(result));
            } catch (error) {
              bar.stop();
              const reason = error instanceof Error ? error.message : String(error);
              failure = {
                message: `Rebuilding ${projection.name} failed: ${reason}`,
                exitCode: 1,
                code: 'switchyard.rebuild',
              };
              break;
            }
          }
        } finally {
          await context.close();
        }
        if (failure) command.error(failure.message, { exitCode: failure.exitCode, code: failure.code });
      },
    );
}
