import { testIdOf, testUploadDecider } from '@switchyard/test-engine';
import { executionColumnsOf, toRunColumns } from '../../libs/test-engine/src/domain/upload/execution-columns';
import { otlpToTestResults } from '../../libs/test-engine/src/ingestion/otlp/otlp-to-test-results';
import { decodeOtlpTraceRequest } from '../../libs/test-engine/src/ingestion/otlp/otlp-trace-request';
import { inflateUpload } from '../../libs/test-engine/src/ingestion/upload-body';
import { createRawTable, type RawDatabase } from './raw-insert';

const FLOOR_EVENTS = 'bench_floor_events';
const FLOOR_EXECUTIONS = 'bench_floor_executions';

export async function createFloorTables(db: RawDatabase): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${FLOOR_EVENTS}`);
  await db.query(
    `CREATE TABLE ${FLOOR_EVENTS} (id bigserial PRIMARY KEY, stream text NOT NULL, data jsonb NOT NULL)`,
  );
  await createRawTable(db, FLOOR_EXECUTIONS);
}

/**
 * The least an event-sourced ingestion of one upload can do, with our own decoding and event
 * shape: inflate and decode the OTLP body, decide the upload's event, store it as one jsonb row,
 * read it back, and insert its executions (with their uuid5 test ids) into a table shaped like
 * ours. No HTTP, stream row, checkpoint, read-your-writes, transaction around the projection, nor
 * anything besides the executions (no per-test counts, no health). Run one upload at a time, on
 * one connection, like the raw insert it is set beside.
 */
export async function ingestAtTheFloor(db: RawDatabase, body: Buffer, uploadId: string): Promise<void> {
  const receivedAt = new Date().toISOString();
  const runs = toRunColumns(
    otlpToTestResults(decodeOtlpTraceRequest(inflateUpload(body, 'gzip')), {
      defaultBranch: 'main',
      receivedAt,
    }),
  );
  const command = {
    type: 'RecordTestResults',
    repository: 'acme/bench',
    uploadId,
    source: 'otlp',
    receivedAt,
    runs,
  } as const;
  for (const event of testUploadDecider.decide(command, testUploadDecider.initialState())) {
    const stored = (await db.query(
      `INSERT INTO ${FLOOR_EVENTS} (stream, data) VALUES ($1, $2) RETURNING id`,
      [uploadId, JSON.stringify(event.data)],
    )) as { rows: Array<{ id: string }> };
    const read = (await db.query(`SELECT data FROM ${FLOOR_EVENTS} WHERE id = $1`, [stored.rows[0]!.id])) as {
      rows: Array<{ data: typeof event.data }>;
    };
    const { run } = read.rows[0]!.data;
    const executions = executionColumnsOf(read.rows[0]!.data.executions);
    await db.query(
      `INSERT INTO ${FLOOR_EXECUTIONS} (repository, trace_id, span_id, test_id, test_name, pipeline_name, job_name,
         commit_key, commit_sha, on_default_branch, conclusion, finished_at, duration_ms, quarantined, failure_id,
         exception_type, exception_message, filepath)
       SELECT 'acme/bench', t, s, i, n, $1, $2, $3, $3, true, c, f, d, q, NULL, NULL, NULL, p
       FROM unnest($4::text[], $5::text[], $6::uuid[], $7::text[], $8::text[], $9::timestamptz[], $10::float8[],
         $11::bool[], $12::text[]) AS x(t, s, i, n, c, f, d, q, p)
       ON CONFLICT DO NOTHING`,
      [
        run.pipelineName,
        run.jobName,
        run.commitSha,
        executions.traceId,
        executions.spanId,
        executions.testName.map((name) => testIdOf('acme/bench', name)),
        executions.testName,
        executions.conclusion,
        executions.finishedAt,
        executions.durationMs,
        executions.quarantined,
        executions.filepath,
      ],
    );
  }
}
