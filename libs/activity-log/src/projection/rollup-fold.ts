import { copyLine } from '@switchyard/sql';
import type { LogRecordRow } from './log-record-rows';
import { KEY_NAMES, ROLLUPS, type RollupFamily } from './rollups';
import { SPANS, type Span } from './spans';

/**
 * Every rollup and span of a bulk load, counted in memory as the records pass and written once at
 * the end: they are counts, minima and maxima over the records, so folding them in the process
 * gives what the live path's per-statement upserts (rollupUpsert, spanUpsert) give, without a scan
 * of the whole record table per rollup.
 *
 * Each distinct key of a family (repository and the values it counts by) is numbered once, through
 * nested maps of the values themselves, so a record costs a few map look-ups and builds no key
 * string; rollups then count per key number and time slot.
 */

type Value = string | number;

/** Numbers distinct tuples of values, keeping each tuple for the output. */
class Tuples {
  private readonly root = new Map<Value, unknown>();
  readonly values: (readonly Value[])[] = [];

  id(values: readonly Value[]): number {
    let node = this.root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(values[i]!) as Map<Value, unknown> | undefined;
      if (!next) node.set(values[i]!, (next = new Map()));
      node = next;
    }
    let id = node.get(values[last]!) as number | undefined;
    if (id === undefined) {
      id = this.values.length;
      this.values.push(values);
      node.set(values[last]!, id);
    }
    return id;
  }
}

/** The slot of date_bin(grain, at, epoch), as a slot number: at lies in [n, n + 1) grains. */
export const slotNumber = (at: number, grainMs: number): number => Math.floor(at / grainMs);

/** Keys of one family seen in one record. */
type FamilyKeys = Record<RollupFamily, readonly number[]>;

export class RollupFold {
  private readonly tuples: Record<RollupFamily, Tuples> = {
    total: new Tuples(),
    dims: new Tuples(),
    pull: new Tuples(),
    batch: new Tuples(),
  };
  /** Per rollup, per key number: count per slot number. */
  private readonly counts = ROLLUPS.map(() => [] as Map<number, number>[]);
  private readonly grainsMs = ROLLUPS.map((rollup) => rollup.grainSeconds * 1000);
  /** Per span, per key number (pull or batch family): count, first and last instant. */
  private readonly spans = SPANS.map(() => ({
    count: [] as number[],
    first: [] as number[],
    last: [] as number[],
  }));

  add(rows: readonly LogRecordRow[]): void {
    const { tuples } = this;
    for (const row of rows) {
      const at = row.receivedAt.getTime();
      const repository = row.repository;
      const keys: FamilyKeys = {
        total: [tuples.total.id([repository])],
        dims: [tuples.dims.id([repository, row.type, row.outcome, row.trigger, row.baseRef ?? ''])],
        pull: row.pullRequest === null ? [] : [tuples.pull.id([repository, row.pullRequest])],
        batch: row.batchPullRequests.map((number) => tuples.batch.id([repository, number])),
      };
      for (let r = 0; r < ROLLUPS.length; r++) {
        const slot = slotNumber(at, this.grainsMs[r]!);
        const counts = this.counts[r]!;
        for (const key of keys[ROLLUPS[r]!.family]) {
          const slots = counts[key] ?? (counts[key] = new Map());
          slots.set(slot, (slots.get(slot) ?? 0) + 1);
        }
      }
      for (let s = 0; s < SPANS.length; s++) {
        const { count, first, last } = this.spans[s]!;
        for (const key of keys[spanFamily(SPANS[s]!)]) {
          if (count[key] === undefined) {
            count[key] = 1;
            first[key] = at;
            last[key] = at;
          } else {
            count[key] = count[key]! + 1;
            if (at < first[key]!) first[key] = at;
            if (at > last[key]!) last[key] = at;
          }
        }
      }
    }
  }

  /** Each rollup and span table with its columns and rows in COPY's text format. */
  *tables(): Generator<{ table: string; columns: readonly string[]; text: string }> {
    for (const [r, rollup] of ROLLUPS.entries()) {
      const keys = this.tuples[rollup.family].values;
      const grainMs = this.grainsMs[r]!;
      let text = '';
      this.counts[r]!.forEach((slots, key) => {
        const [repository, ...values] = keys[key]!;
        for (const [slot, count] of slots) {
          text += copyLine([repository!, new Date(slot * grainMs).toISOString(), ...values, count]);
        }
      });
      yield {
        table: rollup.table,
        columns: ['repository', 'slot', ...KEY_NAMES[rollup.family], 'count'],
        text,
      };
    }
    for (const [s, span] of SPANS.entries()) {
      const keys = this.tuples[spanFamily(span)].values;
      const { count, first, last } = this.spans[s]!;
      let text = '';
      count.forEach((records, key) => {
        const [repository, number] = keys[key]!;
        text += copyLine([
          repository!,
          number!,
          records,
          new Date(first[key]!).toISOString(),
          new Date(last[key]!).toISOString(),
        ]);
      });
      yield { table: span.table, columns: ['repository', span.column, 'count', 'first_at', 'last_at'], text };
    }
  }
}

/** The family whose keys a span widens: the same numbers the hourly pull and batch rollups count. */
const spanFamily = (span: Span): RollupFamily => (span.column === 'pull_request' ? 'pull' : 'batch');
