import type { Position } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import { quoteIdentifier, tablesIn } from './generation-schema';
import { recordActiveGeneration, type Generation } from './generation-table';

export interface GenerationSwitch {
  name: string;
  version: number;
  /** Where the new generation's rows stand: its checkpoint from now on. */
  position: Position | 'start';
  live: string;
  /** Serving until now; null when the live schema holds real tables (built in place). */
  previous: Generation | null;
  next: Omit<Generation, 'tables'>;
}

/**
 * Makes the new generation the one readers see, inside the caller's transaction (which holds the
 * checkpoint row lock): each of its tables gets a view of the same name in the live schema,
 * replacing the previous generation's view or, the first time, the real table built in place;
 * views of tables the new version no longer has go; the checkpoint takes the new version and
 * position. DDL is transactional, so readers see the old generation or the new, never a mix.
 */
export async function switchGeneration(tx: SqlQueryable, plan: GenerationSwitch): Promise<Generation> {
  const live = quoteIdentifier(plan.live);
  const tables = await tablesIn(tx, plan.next.schema);
  const previousTables = plan.previous?.tables ?? [];
  const { rows: existing } = await tx.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) AND c.relkind IN ('r', 'p', 'v')`,
    [plan.live, [...tables, ...previousTables]],
  );
  const kinds = new Map(existing.map((row) => [row.name, row.kind]));
  const drop = (table: string): string[] => {
    const kind = kinds.get(table);
    if (kind === 'v') return [`DROP VIEW ${live}.${quoteIdentifier(table)}`];
    if (kind === 'r' || kind === 'p') return [`DROP TABLE ${live}.${quoteIdentifier(table)}`];
    return [];
  };
  const statements = [
    ...previousTables.filter((table) => !tables.includes(table) && kinds.get(table) === 'v').flatMap(drop),
    ...tables.flatMap((table) => [
      ...drop(table),
      `CREATE VIEW ${live}.${quoteIdentifier(table)} AS SELECT * FROM ${quoteIdentifier(plan.next.schema)}.${quoteIdentifier(table)}`,
    ]),
  ];
  if (statements.length > 0) await tx.exec(statements.join(';\n'));
  const generation: Generation = { ...plan.next, tables };
  await recordActiveGeneration(tx, generation);
  await tx.query(
    `INSERT INTO sy_projection_checkpoints (name, version, position, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, position = EXCLUDED.position,
       updated_at = now(), failure = NULL`,
    [plan.name, plan.version, plan.position],
  );
  return generation;
}
