import { HEALTH_SEVERITY } from '../domain/health/health-rules';

/** The test engine's read-model tables (one projection writes them all, in one transaction). */
export const EXECUTIONS_TABLE = 'test_engine_executions';
export const IDENTITY_COMMITS_TABLE = 'test_engine_identity_commits';
export const IDENTITIES_TABLE = 'test_engine_identities';
export const JOB_COMMIT_TESTS_TABLE = 'test_engine_job_commit_tests';
export const IDENTITY_COUNTS_TABLE = 'test_engine_identity_counts';

export const TEST_ENGINE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS ${EXECUTIONS_TABLE} (
    repository text NOT NULL,
    trace_id text NOT NULL,
    span_id text NOT NULL,
    test_id uuid NOT NULL,
    test_name text NOT NULL,
    pipeline_name text NOT NULL,
    job_name text NOT NULL,
    commit_key text NOT NULL,
    commit_sha text,
    on_default_branch boolean NOT NULL,
    conclusion text NOT NULL,
    finished_at timestamptz NOT NULL,
    duration_ms double precision NOT NULL,
    quarantined boolean NOT NULL,
    failure_id uuid,
    exception_type text,
    exception_message text,
    exception_stacktrace text,
    filepath text,
    function_name text,
    framework text,
    framework_version text,
    language text,
    run_url text,
    PRIMARY KEY (repository, trace_id, span_id)
  );
  CREATE INDEX IF NOT EXISTS ${EXECUTIONS_TABLE}_by_test
    ON ${EXECUTIONS_TABLE} (repository, test_id, finished_at);
  CREATE INDEX IF NOT EXISTS ${EXECUTIONS_TABLE}_by_failure
    ON ${EXECUTIONS_TABLE} (repository, test_id, failure_id) WHERE failure_id IS NOT NULL;

  -- One row per default-branch event: the tests it ran for the job's commit (a test already in a
  -- row of the same commit is not on a new commit). One row per upload part, never one per test.
  CREATE TABLE IF NOT EXISTS ${JOB_COMMIT_TESTS_TABLE} (
    repository text NOT NULL,
    pipeline_name text NOT NULL,
    job_name text NOT NULL,
    commit_key text NOT NULL,
    upload_id text NOT NULL,
    part integer NOT NULL,
    test_ids uuid[] NOT NULL,
    PRIMARY KEY (repository, pipeline_name, job_name, commit_key, upload_id, part)
  );

  CREATE TABLE IF NOT EXISTS ${IDENTITY_COMMITS_TABLE} (
    repository text NOT NULL,
    test_id uuid NOT NULL,
    pipeline_name text NOT NULL,
    job_name text NOT NULL,
    commit_key text NOT NULL,
    first_finished_at timestamptz NOT NULL,
    passed integer NOT NULL,
    failed integer NOT NULL,
    skipped integer NOT NULL,
    PRIMARY KEY (repository, test_id, pipeline_name, job_name, commit_key)
  );
  CREATE INDEX IF NOT EXISTS ${IDENTITY_COMMITS_TABLE}_recent
    ON ${IDENTITY_COMMITS_TABLE} (repository, test_id, pipeline_name, job_name, first_finished_at DESC);

  CREATE TABLE IF NOT EXISTS ${IDENTITIES_TABLE} (
    repository text NOT NULL,
    test_id uuid NOT NULL,
    pipeline_name text NOT NULL,
    job_name text NOT NULL,
    test_name text NOT NULL,
    health_status text NOT NULL,
    health_rank smallint NOT NULL,
    failed_executions_ratio double precision NOT NULL,
    failed_executions_impact text,
    impact_rank smallint NOT NULL,
    success_ratio double precision NOT NULL,
    failure_ratio double precision NOT NULL,
    flakiness_ratio double precision NOT NULL,
    executions_count integer NOT NULL,
    last_finished_at timestamptz NOT NULL,
    -- Whether ${IDENTITY_COMMITS_TABLE} holds the identity's commits: only once it saw anything but
    -- passes (see the projection). A test that only ever passed is this row alone.
    commits_kept boolean NOT NULL,
    PRIMARY KEY (repository, pipeline_name, job_name, test_id)
  ) WITH (fillfactor = 50);
  CREATE INDEX IF NOT EXISTS ${IDENTITIES_TABLE}_by_test ON ${IDENTITIES_TABLE} (repository, test_id);
  -- search/tests' flaky and broken tests, without reading the healthy ones. Uploads that leave a
  -- verdict as it was change no column of it, so their updates stay heap-only.
  CREATE INDEX IF NOT EXISTS ${IDENTITIES_TABLE}_not_healthy ON ${IDENTITIES_TABLE} (repository, health_rank)
    WHERE health_rank > ${HEALTH_SEVERITY.healthy};
  -- Every upload moves executions_count and last_finished_at of each identity it ran. Neither is in
  -- an index, and half of each page is left free, so those updates are heap-only (HOT): no index
  -- entry per update. search/tests' default sort by executions_count is then a top-N sort of the
  -- repository's identities instead of an index range, which grows with the repository: bench:tests
  -- measures its p99 over 10,000 tests (bench/README, test engine: measured both ways, and alone
  -- over 50,000 and 100,000).
  -- search/tests' name globs: the names that start with a glob's literal prefix, an index range
  -- (LIKE 'prefix%' needs the pattern operator class whatever the database's collation).
  CREATE INDEX IF NOT EXISTS ${IDENTITIES_TABLE}_by_name_pattern
    ON ${IDENTITIES_TABLE} (repository, test_name text_pattern_ops);

  -- Identities per repository, moved by each new identity: search/tests' total without filters.
  -- Counting the identity rows reads every version their updates left behind until a vacuum.
  CREATE TABLE IF NOT EXISTS ${IDENTITY_COUNTS_TABLE} (
    repository text PRIMARY KEY,
    identities integer NOT NULL
  );
`;
