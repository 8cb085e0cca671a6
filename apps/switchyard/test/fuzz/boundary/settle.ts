import type { TestApp } from '../../harness';

/**
 * Waits until the service is idle again: the sandbox forge has delivered every webhook it queued
 * and every processor has read up to the head, with nothing new appended meanwhile. Answers what
 * went wrong on the way: a forge delivery the webhook door refused, a processor that stopped or is
 * retrying a failure, or one that did not catch up.
 */
export async function settle(app: TestApp, timeoutMs = 60_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  const host = app.running.projections!;
  const store = app.running.storage.store;
  for (;;) {
    const { rows } = await app.running.storage.executor.query<{
      pending: string | number;
      refused: string | number;
    }>(
      `SELECT count(*) FILTER (WHERE delivered_at IS NULL) AS pending,
              count(*) FILTER (WHERE status >= 300) AS refused
         FROM sandbox_deliveries`,
    );
    const problems: string[] = [];
    if (Number(rows[0]!.refused) > 0) problems.push(...(await refusedDeliveries(app)));
    const head = await store.headPosition();
    if (head !== null && !(await host.waitFor(host.names, head, Math.max(1, deadline - Date.now()))))
      problems.push(`processors did not reach ${head}`);
    for (const status of host.status()) {
      if (status.failedOn) problems.push(`processor ${status.name} stopped: ${status.failedOn.error}`);
      else if (status.lastError) problems.push(`processor ${status.name} is retrying: ${status.lastError}`);
    }
    if (problems.length > 0) return problems;
    if (Number(rows[0]!.pending) === 0 && (await store.headPosition()) === head) return [];
    if (Date.now() > deadline) return ['the forge did not deliver its webhooks in time'];
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function refusedDeliveries(app: TestApp): Promise<string[]> {
  const { rows } = await app.running.storage.executor.query<{
    event: string;
    status: number | null;
    last_error: string | null;
  }>(
    `SELECT event, status, last_error FROM sandbox_deliveries
      WHERE status >= 300 ORDER BY id LIMIT 5`,
  );
  return rows.map(
    (row) => `the forge's ${row.event} delivery was refused: ${row.status ?? ''} ${row.last_error ?? ''}`,
  );
}

/** Whether the service answers /readyz with 200 (no processor stopped or retrying). */
export async function readyProblems(app: TestApp): Promise<string[]> {
  const ready = await app.request('GET', '/readyz', { token: null });
  return ready.status === 200 ? [] : [`/readyz answered ${ready.status}: ${ready.text.slice(0, 500)}`];
}
