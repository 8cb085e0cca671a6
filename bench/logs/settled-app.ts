import { switchyardProjections } from '@switchyard/runtime';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { rebuildBlueGreen } from '@switchyard/projection';
import type { PgExecutor } from '@switchyard/sql';

interface ProcessorPosition {
  name: string;
  kind: 'projection' | 'reactor';
  state: string;
  behind: number | null;
}

const SETTLE_TIMEOUT_MS = 30 * 60_000;

/**
 * Builds every read model the app serves except `except` (built and timed by the caller) with the
 * rebuild's bulk path, as an operator's rebuild would: a service in steady state has none catching
 * up, and one catching up in the app's process would be timed with every request.
 */
export async function rebuildOtherReadModels(
  executor: PgExecutor,
  except: string,
): Promise<{ names: string[]; seconds: number }> {
  const started = performance.now();
  const store = await SqlEventStore.open(executor);
  const others = switchyardProjections().filter((projection) => projection.name !== except);
  for (const projection of others) await rebuildBlueGreen({ executor, store, projection });
  return { names: others.map((p) => p.name), seconds: (performance.now() - started) / 1000 };
}

/**
 * Moves the named reactors' checkpoints to the head of the feed, as in a service that has been
 * running all along: their side effects for the seeded month count as done. Left to run, the
 * engine's reactors replay a month of queue events in the app's process while pages are timed.
 * Call it while the app is stopped.
 */
export async function markReactorsAtHead(executor: PgExecutor, names: readonly string[]): Promise<void> {
  const store = await SqlEventStore.open(executor);
  const head = await store.headPosition();
  await store.close();
  if (head === null) return;
  await executor.query(
    `UPDATE sy_projection_checkpoints SET position = $2, updated_at = now() WHERE name = ANY($1::text[])`,
    [names, head],
  );
}

/**
 * Polls /readyz until every projection is live at the head; says which reactors are not.
 */
export async function waitForSettledProjections(
  baseUrl: string,
): Promise<{ seconds: number; laggingReactors: ProcessorPosition[] }> {
  const started = performance.now();
  const atHead = (p: ProcessorPosition) => p.state === 'live' && p.behind === 0;
  for (;;) {
    const all = await readProcessors(baseUrl);
    const processors = all?.filter((p) => p.kind === 'projection');
    if (all && processors!.every(atHead)) {
      const laggingReactors = all.filter((p) => p.kind === 'reactor' && !atHead(p));
      return { seconds: (performance.now() - started) / 1000, laggingReactors };
    }
    if (performance.now() - started > SETTLE_TIMEOUT_MS) {
      const lagging = (processors ?? []).filter((p) => p.state !== 'live' || p.behind !== 0);
      throw new Error(`projections not at the head: ${JSON.stringify(lagging)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function readProcessors(baseUrl: string): Promise<ProcessorPosition[] | null> {
  const response = await fetch(`${baseUrl}/readyz`);
  if (response.status !== 200) return null;
  const body = (await response.json()) as {
    checks: Array<{ name: string; details?: { processors?: ProcessorPosition[] } }>;
  };
  return body.checks.find((check) => check.name === 'processors')?.details?.processors ?? null;
}
