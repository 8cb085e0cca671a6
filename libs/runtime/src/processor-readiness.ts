import { decodeSqlPosition, type EventStore, type Position } from '@switchyard/event-store';
import { NotReadyError, type ReadinessContributor } from '@switchyard/http';
import {
  countParkedEvents,
  databaseNow,
  readCheckpoints,
  type Checkpoint,
  type ProcessorHost,
  type ProcessorStatus,
} from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';

/** A processor the deployment runs somewhere, as the process that reports on it knows it. */
export interface DeploymentProcessor {
  name: string;
  kind: 'projection' | 'reactor' | 'periodic';
}

/**
 * A heartbeat older than this says its process is gone (or stuck): a few missed beats (every
 * 5 s), and longer than a lease takes to pass to another engine, so a takeover is not reported.
 */
export const STALE_HEARTBEAT_MS = 30_000;

export interface ProcessorReport {
  name: string;
  kind: DeploymentProcessor['kind'];
  /** Its state here when this process runs it; 'elsewhere' when another process does. */
  state: ProcessorStatus['state'] | 'elsewhere' | 'not-started';
  position: Position | 'start' | null;
  behind: number | null;
  /** Milliseconds since its owner last said it was alive; null when it never has. */
  heartbeat_age_ms: number | null;
  error: string | null;
  /** Why it stopped for good (the event it stopped on), or null. */
  failure: string | null;
  failed_on: ProcessorStatus['failedOn'];
  /** External facts it could not apply and went on past (see the parked-events commands). */
  parked: number;
}

/**
 * /readyz for every processor of the deployment, wherever it runs: a processor this process runs
 * is judged by its runner; one that runs elsewhere (or whose lock another process holds) by the
 * checkpoint table, where each owner records its heartbeat and the failure it retries. Not ready
 * when one has stopped for good, is retrying a failure, or has no fresh heartbeat; ready with a
 * warning when one has parked external facts.
 */
export function processorReadiness(deps: {
  executor: SqlQueryable;
  store: EventStore;
  processors: readonly DeploymentProcessor[];
  /** The processors this process runs, if any. */
  host: ProcessorHost | null;
  staleAfterMs?: number;
}): ReadinessContributor {
  const names = deps.processors.map((processor) => processor.name);
  const staleAfterMs = deps.staleAfterMs ?? STALE_HEARTBEAT_MS;
  return {
    name: 'processors',
    async check() {
      const [head, checkpoints, parked, now] = await Promise.all([
        countableHead(deps.store),
        readCheckpoints(deps.executor, names),
        countParkedEvents(deps.executor),
        databaseNow(deps.executor),
      ]);
      const problems: string[] = [];
      const warnings: string[] = [];
      const processors = deps.processors.map((processor) => {
        const local = deps.host?.runner(processor.name)?.status() ?? null;
        const stored = checkpoints.get(processor.name) ?? null;
        const report = reportOn(processor, local, stored, head, now, parked.get(processor.name) ?? 0);
        const problem = problemOf(report, local, staleAfterMs);
        if (problem) problems.push(`${processor.name} ${problem}`);
        if (report.parked > 0)
          warnings.push(`${processor.name} has parked ${report.parked} event(s) it could not apply`);
        return report;
      });
      const details = { head, processors, ...(warnings.length > 0 ? { warnings } : {}) };
      if (problems.length > 0) throw new NotReadyError(problems.join('; '), details);
      return details;
    },
  };
}

function reportOn(
  processor: DeploymentProcessor,
  local: ProcessorStatus | null,
  stored: Checkpoint | null,
  head: Position | null,
  now: Date,
  parked: number,
): ProcessorReport {
  // Judged here unless another process holds it: then its heartbeat and stored failure tell.
  const here = local !== null && local.state !== 'waiting-for-lock';
  const position = here ? local.position : (stored?.position ?? null);
  return {
    name: processor.name,
    kind: processor.kind,
    state: here ? local.state : stored?.heartbeatAt ? 'elsewhere' : 'not-started',
    position: processor.kind === 'periodic' ? null : position,
    behind: processor.kind === 'periodic' ? null : positionsBehind(position, head),
    heartbeat_age_ms: stored?.heartbeatAt ? Math.max(0, now.getTime() - stored.heartbeatAt.getTime()) : null,
    error: here ? local.lastError : (stored?.lastError ?? null),
    failure: stored?.failure ?? null,
    failed_on: local?.failedOn ?? null,
    parked,
  };
}

/** Why the processor makes the deployment not ready, or null. */
function problemOf(
  report: ProcessorReport,
  local: ProcessorStatus | null,
  staleAfterMs: number,
): string | null {
  const here = local !== null && local.state !== 'waiting-for-lock';
  if (here) {
    if (local.failedOn || report.failure) return 'has stopped';
    return local.lastError ? `is failing: ${local.lastError}` : null;
  }
  if (report.failure) return 'has stopped';
  if (report.heartbeat_age_ms === null) return 'has not started: no process runs it';
  if (report.heartbeat_age_ms > staleAfterMs)
    return `has no heartbeat for ${Math.round(report.heartbeat_age_ms / 1000)} s: its process is gone or stuck`;
  return report.error ? `is failing: ${report.error}` : null;
}

/** Only SQL positions number the events; EventStoreDB's are log offsets, so no count there. */
async function countableHead(store: EventStore): Promise<Position | null> {
  return store.name === 'esdb' ? null : store.headPosition();
}

/**
 * Global positions between the checkpoint and the head (events appended since, rolled-back
 * appends included); null while the checkpoint or a countable head is unknown.
 */
function positionsBehind(position: Position | 'start' | null, head: Position | null): number | null {
  if (position === null || head === null) return null;
  const at = position === 'start' ? 0n : BigInt(decodeSqlPosition(position).globalPosition);
  return Math.max(0, Number(BigInt(decodeSqlPosition(head).globalPosition) - at));
}
