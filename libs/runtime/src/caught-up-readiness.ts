import { comparePositions, isAtOrAfter, type EventStore, type Position } from '@switchyard/event-store';
import { NotReadyError, type ReadinessContributor } from '@switchyard/http';
import { readCheckpoints, type ProcessorHost } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';

type Positions = (readModels: readonly string[]) => Promise<ReadonlyMap<string, Position | 'start' | null>>;

/** A read model the process cannot serve without, and the event types it is built from. */
export interface EssentialReadModel {
  name: string;
  /** Undefined: every event counts. */
  eventTypes?: readonly string[];
}

export interface CaughtUpReadinessOptions {
  /** The read models the process cannot serve without (the credentials: every request is checked against them). */
  readModels: readonly EssentialReadModel[];
  headPosition: () => Promise<Position | null>;
  /** The feed, to tell whether anything a read model reads lies between its checkpoint and the target. */
  readAll: EventStore['readAll'];
  /** Where each read model has committed (null: not known yet). */
  positions: Positions;
}

/** Where the runners of this process have committed (all-in-one, projector). */
export const runnerPositions =
  (host: ProcessorHost): Positions =>
  async (readModels) =>
    new Map(readModels.map((name) => [name, host.runner(name)?.position() ?? null]));

/** Where the checkpoint table says they have committed (the api beside a projector). */
export const checkpointPositions =
  (executor: SqlQueryable): Positions =>
  async (readModels) => {
    const checkpoints = await readCheckpoints(executor, readModels);
    return new Map(readModels.map((name) => [name, checkpoints.get(name)?.position ?? null]));
  };

/**
 * /readyz says ready only once the read models a process cannot serve without have caught up to
 * the head as of start: a fresh start that said ready while its credentials projection had not yet
 * seen the admin key answered 403 to that key (issue 33). "As of start" is the head when readiness
 * is first asked, which is after start-up's own writes (the bootstrap admin key); a fixed target,
 * so a steady stream of appends cannot keep a process from ever being ready. Once reached it stays
 * reached: lag after that is what the processors' own report shows, and it is not a reason to
 * take the process out of rotation. A read model whose checkpoint is short of the target counts as
 * caught up when no event of its types lies in between: a live processor only moves its checkpoint
 * past events it ignores when it next reads, so a pause stored just before the first probe would
 * otherwise keep the credentials "behind" until then.
 */
export function caughtUpReadiness(options: CaughtUpReadinessOptions): ReadinessContributor {
  let target: Position | null | undefined;
  let caughtUp = false;
  return {
    name: 'caught_up',
    async check() {
      if (caughtUp) return;
      if (target === undefined) target = await options.headPosition();
      const head = target;
      if (head === null) {
        caughtUp = true;
        return;
      }
      const positions = await options.positions(options.readModels.map((model) => model.name));
      const behind: string[] = [];
      for (const model of options.readModels) {
        const position = positions.get(model.name) ?? null;
        if (position === null) behind.push(model.name);
        else if (!isAtOrAfter(position, head) && (await readsBefore(options.readAll, model, position, head)))
          behind.push(model.name);
      }
      if (behind.length === 0) {
        caughtUp = true;
        return;
      }
      throw new NotReadyError(`${behind.join(', ')} not yet caught up to the head as of start (${head})`, {
        head_at_start: head,
        behind,
      });
    },
  };
}

/** Whether an event the read model reads lies after its position and at or before the target. */
async function readsBefore(
  readAll: EventStore['readAll'],
  model: EssentialReadModel,
  position: Position | 'start',
  head: Position,
): Promise<boolean> {
  const { events } = await readAll({
    after: position,
    limit: 1,
    ...(model.eventTypes ? { filter: { eventTypes: model.eventTypes } } : {}),
  });
  return events.length > 0 && comparePositions(events[0]!.position, head) <= 0;
}
