import type { Command } from 'commander';
import type { EventStore } from '@switchyard/event-store';
import { findParkedEvent, listParkedEvents, replayParkedEvent } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import type { Print } from './rebuild.command';

/** What the parked-event commands need: the deployment's stores. */
export interface ParkedCliContext {
  executor: SqlExecutor;
  store: EventStore;
  close(): Promise<void>;
}

const printToStdout: Print = (line) => process.stdout.write(`${line}\n`);

/** Exit code when the named parked event does not exist, or a replay did not apply it. */
const NOT_DONE = 1;

/**
 * `parked list`, `parked show <id>` and `parked replay <id>`: the external facts that processors
 * could not apply and went on past (the same as `/v1/admin/parked-events`).
 */
export function registerParkedCommands(
  program: Command,
  open: () => Promise<ParkedCliContext>,
  print: Print = printToStdout,
): void {
  const parked = program.command('parked').description('events that processors parked and went on past');
  const withContext = async (work: (context: ParkedCliContext) => Promise<void>) => {
    const context = await open();
    try {
      await work(context);
    } finally {
      await context.close();
    }
  };

  parked
    .command('list')
    .description('list the parked events not replayed yet')
    .action(() =>
      withContext(async ({ executor }) => {
        const events = await listParkedEvents(executor);
        if (events.length === 0) print('No parked events.');
        for (const event of events)
          print(
            `${event.id}\t${event.processor}\t${event.type}\t${event.streamId}@${event.revision}\t${event.parkedAt}\t${event.error}`,
          );
      }),
    );

  parked
    .command('show <id>')
    .description('show a parked event, with the event as stored (JSON)')
    .action((id: string) =>
      withContext(async ({ executor, store }) => {
        const found = await findParkedEvent(executor, id);
        if (!found) {
          print(`No parked event ${id}`);
          process.exitCode = NOT_DONE;
          return;
        }
        const { events } = await store.readStream(found.streamId, {
          fromRevision: BigInt(found.revision),
          maxCount: 1,
        });
        const event = events[0];
        print(
          JSON.stringify(
            { ...found, event: event ? { data: event.data, metadata: event.metadata } : null },
            null,
            2,
          ),
        );
      }),
    );

  parked
    .command('replay <id>')
    .description('apply a parked event again (after a fix); waits for its processor to do it')
    .action((id: string) =>
      withContext(async ({ executor }) => {
        const result = await replayParkedEvent(executor, id);
        switch (result.outcome) {
          case 'unknown':
            print(`No parked event ${id}`);
            break;
          case 'already-replayed':
            print(`Parked event ${id} was replayed already, at ${result.parked.replayedAt}`);
            break;
          case 'replayed':
            print(`Replayed ${id} (${result.parked.type}) in ${result.parked.processor}: no longer parked`);
            return;
          case 'failed':
            print(`Replay of ${id} failed, it stays parked: ${result.parked.lastReplayError}`);
            break;
          case 'pending':
            print(`Replay of ${id} asked; no process running ${result.parked.processor} has done it yet`);
            break;
        }
        process.exitCode = NOT_DONE;
      }),
    );
}
