import fc from 'fast-check';
import {
  conditionList,
  eventTypeText,
  instantText,
  logCursorText,
  mergifyYmlText,
  naiveDateTime,
  quarantineCursorText,
  outcomeText,
  perPageText,
  pullNumberText,
  reasonText,
  testNameText,
  timeZone,
} from './plausible-values';

/**
 * Every endpoint the app serves, as the fuzz suite sees it. A new endpoint joins the suite with one
 * entry here: its method, its path with `{placeholders}` (each placeholder needs an arbitrary in
 * path-parameters.ts), the query keys it reads with plausible values, and the shape of a valid body.
 * Endpoints without `body` get a stray one now and then.
 */
export interface FuzzEndpoint {
  /** Several methods: each request picks one (for paths no route serves). */
  method: string | readonly string[];
  path: string;
  query?: Record<string, fc.Arbitrary<string>>;
  body?: Record<string, fc.Arbitrary<unknown>>;
}

const REPO = '/v1/repos/{owner}/{repository}';
const CI = '/v1/ci/{owner}/repositories/{repository}';

const freezeFields = {
  reason: reasonText,
  start: naiveDateTime,
  end: naiveDateTime,
  timezone: timeZone,
  matching_conditions: conditionList,
  exclude_conditions: conditionList,
};

const logFilters = {
  pull_request: pullNumberText,
  not_pull_request: pullNumberText,
  base_ref: fc.constantFrom('main', 'release/1.x', 'x'.repeat(256)),
  batch_pull: pullNumberText,
  not_batch_pull: pullNumberText,
  event_type: eventTypeText,
  not_event_type: eventTypeText,
  outcome: outcomeText,
  not_outcome: outcomeText,
  trigger: fc.constantFrom('queue', 'Rule: default', 'merge_queue'),
  not_trigger: fc.constantFrom('queue', 'Rule: default'),
  received_from: instantText,
  received_to: instantText,
};

const testScope = {
  pipeline_name: fc.constantFrom('ci', '', 'x'.repeat(256)),
  job_name: fc.constantFrom('unit', 'e2e', ''),
};

const testFilters = {
  test_name: testNameText,
  test_name_exclude: testNameText,
  pipeline_name: fc.constantFrom('ci', '', 'x'.repeat(256)),
  pipeline_name_exclude: fc.constantFrom('ci'),
  job_name: fc.constantFrom('unit', 'e2e'),
  job_name_exclude: fc.constantFrom('unit'),
  failed_executions_impact: fc.constantFrom('low', 'medium', 'high', 'huge'),
  failed_executions_impact_exclude: fc.constantFrom('low', 'medium', 'high', 'huge'),
};

/** Instants for the status endpoints' `at` and the legacy window: past, future, malformed. */
const queueInstantText = fc.constantFrom(
  '2026-03-02T09:00:00Z',
  '2999-01-01T00:00:00Z',
  '2026-03-02T10:00:00',
  '1700000000',
  'yesterday',
);

export const FUZZ_ENDPOINTS: readonly FuzzEndpoint[] = [
  { method: 'GET', path: '/v1/application' },

  { method: 'PUT', path: `${REPO}/merge-queue/pause`, body: { reason: reasonText } },
  { method: 'GET', path: `${REPO}/merge-queue/pause` },
  { method: 'DELETE', path: `${REPO}/merge-queue/pause` },

  { method: 'GET', path: `${REPO}/merge-queue/branches` },
  {
    method: 'GET',
    path: `${REPO}/merge-queue/status`,
    query: { branch: fc.constantFrom('main', '', 'x'.repeat(256)), at: queueInstantText },
  },
  {
    method: 'GET',
    path: `${REPO}/merge-queue/statistics`,
    query: {
      branch: fc.constantFrom('main', '', 'x'.repeat(256)),
      since: queueInstantText,
      until: queueInstantText,
    },
  },
  { method: 'GET', path: `${REPO}/merge-queue/pull/{number}`, query: { at: queueInstantText } },
  { method: 'GET', path: `${REPO}/merge-queue/pull/{number}/dequeue-impact` },
  { method: 'POST', path: `${REPO}/merge-queue/pull/{number}/dequeue` },
  { method: 'GET', path: `${REPO}/queues` },
  {
    method: 'GET',
    path: `${REPO}/queues/branches`,
    query: { start_at: queueInstantText, end_at: queueInstantText },
  },

  { method: 'PUT', path: `${REPO}/queue/pause`, body: { reason: reasonText } },
  { method: 'GET', path: `${REPO}/queue/pause` },
  { method: 'DELETE', path: `${REPO}/queue/pause` },
  { method: 'POST', path: `${REPO}/queue/pause/delete` },

  { method: 'GET', path: `${REPO}/scheduled_freeze` },
  { method: 'POST', path: `${REPO}/scheduled_freeze`, body: freezeFields },
  { method: 'PATCH', path: `${REPO}/scheduled_freeze/{freeze_id}`, body: freezeFields },
  {
    method: 'POST',
    path: `${REPO}/scheduled_freeze/{freeze_id}/delete`,
    body: { delete_reason: reasonText },
  },
  { method: 'DELETE', path: `${REPO}/scheduled_freeze/{freeze_id}`, body: { delete_reason: reasonText } },

  {
    method: 'GET',
    path: `${REPO}/logs`,
    query: { ...logFilters, cursor: logCursorText, per_page: perPageText },
  },
  { method: 'GET', path: `${REPO}/logs/aggregate`, query: logFilters },

  {
    method: 'GET',
    path: `${CI}/quarantines`,
    query: {
      branch: fc.constantFrom('main', '', 'x'.repeat(256)),
      test_id: fc.oneof(fc.uuid(), fc.constant('nope')),
      source: fc.constantFrom('manual', 'auto', 'other'),
      branch_name: fc.constantFrom('main', 'dev'),
      branch_name_exclude: fc.constantFrom('main', 'dev'),
      pipeline_name: fc.constantFrom('ci', ''),
      pipeline_name_exclude: fc.constantFrom('ci'),
      job_name: fc.constantFrom('unit', 'e2e'),
      job_name_exclude: fc.constantFrom('unit'),
      test_name: testNameText,
      test_name_exclude: testNameText,
      health_status: fc.constantFrom('healthy', 'flaky', 'broken', 'sick'),
      health_status_exclude: fc.constantFrom('healthy', 'flaky', 'broken', 'sick'),
      cursor: quarantineCursorText,
      per_page: perPageText,
      sort: fc.constantFrom(
        'created_at',
        'test_name',
        'pipeline_name',
        'job_name',
        'health_status',
        'source',
        'x',
      ),
      direction: fc.constantFrom('asc', 'desc', 'up'),
    },
  },
  {
    method: 'POST',
    path: `${CI}/quarantines`,
    body: {
      test_name: testNameText,
      reason: reasonText,
      branch: testNameText,
      unquarantine_when_healthy: fc.boolean(),
    },
  },
  { method: 'GET', path: `${CI}/quarantines/{quarantine_id}` },
  { method: 'DELETE', path: `${CI}/quarantines/{quarantine_id}` },
  {
    method: 'POST',
    path: `${CI}/quarantines/check`,
    body: { tests_names: fc.array(testNameText, { maxLength: 5 }), branch: testNameText },
  },
  {
    method: 'POST',
    path: '/v1/ci/{owner}/{repository}/quarantine/check',
    body: { tests_names: fc.array(testNameText, { maxLength: 5 }) },
  },
  { method: 'GET', path: `${CI}/auto-quarantine` },
  {
    method: 'PUT',
    path: `${CI}/auto-quarantine`,
    body: {
      enabled: fc.oneof(fc.boolean(), fc.constant('yes')),
      ignore_broken_on_default_branch: fc.boolean(),
    },
  },

  { method: 'POST', path: `${CI}/traces` },
  { method: 'POST', path: `${REPO}/ci/traces` },
  {
    method: 'POST',
    path: `${CI}/junit`,
    query: {
      pipeline_name: fc.constantFrom('ci', '', 'x'.repeat(256)),
      job_name: fc.constantFrom('unit', ''),
      head_sha: fc.constantFrom('abc123'),
      branch: fc.constantFrom('main', 'refs/heads/main'),
      base_branch: fc.constantFrom('main'),
      run_attempt: fc.constantFrom('1', '0', 'x', '99999999999'),
    },
  },
  {
    method: 'GET',
    path: `${CI}/search/tests`,
    query: {
      ...testFilters,
      health_status: fc.constantFrom('healthy', 'flaky', 'broken', 'sick'),
      health_status_exclude: fc.constantFrom('healthy', 'flaky', 'broken', 'sick'),
      is_quarantined: fc.constantFrom('true', 'false', 'maybe'),
      cursor: fc.constantFrom('eyJvIjoxMH0', 'eyJvIjotMX0', 'not a cursor'),
      per_page: perPageText,
      sort: fc.constantFrom(
        'executions_count',
        'test_name',
        'pipeline_name',
        'job_name',
        'health_status',
        'failed_executions_impact',
        'failed_executions_ratio',
        'x',
      ),
      direction: fc.constantFrom('asc', 'desc', 'up'),
    },
  },
  { method: 'GET', path: `${CI}/tests/stats/{repository_test_stat}`, query: testFilters },
  { method: 'GET', path: `${CI}/tests/{test_id}`, query: testScope },
  {
    method: 'GET',
    path: `${CI}/tests/{test_id}/stats/{test_stat}`,
    query: { ...testScope, window: fc.constantFrom('7d', '30d', '90d', 'x') },
  },
  {
    method: 'GET',
    path: `${CI}/tests/{test_id}/health-transitions`,
    query: { ...testScope, window: fc.constantFrom('7d', '30d', '90d', '1d') },
  },
  { method: 'GET', path: `${CI}/tests/{test_id}/failures`, query: testScope },
  { method: 'GET', path: `${CI}/tests/{test_id}/failures/{failure_id}`, query: testScope },
  {
    method: 'GET',
    path: `${CI}/tests/{test_id}/executions`,
    query: {
      cursor: fc.constantFrom('eyJvIjoxMH0', 'bad'),
      per_page: perPageText,
      sort: fc.constantFrom('executions_count', 'pipeline_name', 'job_name', 'x'),
      direction: fc.constantFrom('asc', 'desc', 'up'),
      window: fc.constantFrom('7d', '30d', '90d'),
    },
  },

  { method: 'POST', path: `${REPO}/configuration-simulator`, body: { mergify_yml: mergifyYmlText } },
  { method: 'POST', path: `${REPO}/simulator`, body: { mergify_yml: mergifyYmlText } },
  {
    method: 'POST',
    path: `${REPO}/merge-queue/simulation`,
    body: {
      mergify_yml: mergifyYmlText,
      arrivals: fc.constantFrom('20/h', '150/d', 'burst:40', '5000/h', 'lots'),
      ci: fc.constantFrom('30m±20%', '2h+-10%', '0m'),
      failure: fc.constantFrom('5%', '0.05', '100%'),
      flaky: fc.constantFrom('1%', 'x'),
    },
  },
  { method: 'POST', path: `${REPO}/pulls/{number}/simulator`, body: { mergify_yml: mergifyYmlText } },
  { method: 'GET', path: `${REPO}/queues/configuration` },
  ...(['PUT', 'POST'] as const).map((method) => ({
    method,
    path: `${REPO}/pulls/{number}/scopes`,
    body: {
      scopes: fc.array(testNameText, { maxLength: 4 }),
      all_scopes: fc.oneof(fc.boolean(), fc.constant(null)),
    },
  })),

  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/v1/openapi.json' },

  {
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    path: '{any_path}',
    body: { reason: reasonText },
  },
];

export const endpointName = ({ method, path }: FuzzEndpoint): string =>
  `${typeof method === 'string' ? method : method.join('|')} ${path}`;
