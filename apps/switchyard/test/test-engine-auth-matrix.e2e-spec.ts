import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Issue 35 scope 4: one rule for what each credential may do on the test engine, asserted
 * operation by operation over HTTP. The rule: the spec's (`spec/api-spec.md` "Test engine": STD,
 * the quarantine listing QUAR), widened only where a step Mergify's CLI runs in CI needs more
 * (client-contract §1.2: `ci junit-process` calls `quarantines/check` and `ci/traces` with a CI
 * key; reporters upload traces), and for the rest the spec's listing decides. The same table is in
 * the README ("Who may call what on the test engine"); the last test holds the two together.
 */
const HOST_TOKEN = 'ghp_matrix_0123456789';
type Credential = 'admin key' | 'ci key' | 'service token' | 'host token';
const CREDENTIALS: Credential[] = ['admin key', 'ci key', 'service token', 'host token'];
/** The refusal of a credential of a kind the route does not take. */
const REFUSED: Record<Credential, string> = {
  'admin key': 'This endpoint does not accept admin application keys',
  'ci key': 'This endpoint does not accept CI application keys',
  'service token': 'This endpoint does not accept service tokens',
  'host token': 'This endpoint does not accept code-host tokens',
};

interface Operation {
  /** As the README's table writes it. */
  label: string;
  method: string;
  path: (repository: string) => string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  accepted: readonly Credential[];
  why: string;
}

const STD: readonly Credential[] = ['admin key', 'service token', 'host token'];
const QUAR: readonly Credential[] = CREDENTIALS;
const UPLOAD: readonly Credential[] = ['admin key', 'ci key'];
const TEST_ID = '6f1ad7a5-0b7e-5f4a-9c1b-1a2b3c4d5e6f';
const QUARANTINE_ID = '0b7e6f1a-d7a5-4f4a-9c1b-1a2b3c4d5e6f';
const ci = (repository: string) => `/v1/ci/${repository.replace('/', '/repositories/')}`;
const PROTOBUF = { 'content-type': 'application/x-protobuf' };

const OPERATIONS: Operation[] = [
  {
    label: '`POST /v1/repos/{o}/{r}/ci/traces`',
    method: 'POST',
    path: (r) => `/v1/repos/${r}/ci/traces`,
    rawBody: '',
    headers: PROTOBUF,
    accepted: UPLOAD,
    why: 'CI step: `ci junit-process` uploads',
  },
  {
    label: '`POST …/traces`',
    method: 'POST',
    path: (r) => `${ci(r)}/traces`,
    rawBody: '',
    headers: PROTOBUF,
    accepted: UPLOAD,
    why: 'CI step: the reporters upload',
  },
  {
    label: '`POST …/junit`',
    method: 'POST',
    path: (r) => `${ci(r)}/junit?pipeline_name=ci&job_name=unit&head_sha=abc&branch=main`,
    rawBody: '<testsuites/>',
    headers: { 'content-type': 'application/xml' },
    accepted: UPLOAD,
    why: 'CI step (our route for CI without a reporter)',
  },
  {
    label: '`POST …/quarantines/check`',
    method: 'POST',
    path: (r) => `${ci(r)}/quarantines/check`,
    body: { tests_names: ['t'], branch: 'main' },
    accepted: QUAR,
    why: 'CI step: `ci junit-process` asks it',
  },
  {
    label: '`POST /v1/ci/{o}/{r}/quarantine/check`',
    method: 'POST',
    path: (r) => `/v1/ci/${r}/quarantine/check`,
    body: { tests_names: ['t'] },
    accepted: QUAR,
    why: 'CI step of CLIs before July 2025',
  },
  {
    label: '`GET …/quarantines`',
    method: 'GET',
    path: (r) => `${ci(r)}/quarantines`,
    accepted: QUAR,
    why: 'spec: QUAR',
  },
  {
    label: '`POST …/quarantines`',
    method: 'POST',
    path: (r) => `${ci(r)}/quarantines`,
    body: { test_name: 't', reason: 'r' },
    accepted: STD,
    why: 'spec: STD; no CI step adds one',
  },
  {
    label: '`GET …/quarantines/{id}`',
    method: 'GET',
    path: (r) => `${ci(r)}/quarantines/${QUARANTINE_ID}`,
    accepted: STD,
    why: 'spec: STD; the CLI never calls it',
  },
  {
    label: '`DELETE …/quarantines/{id}`',
    method: 'DELETE',
    path: (r) => `${ci(r)}/quarantines/${QUARANTINE_ID}`,
    accepted: STD,
    why: 'spec: STD; no CI step removes one',
  },
  {
    label: '`GET …/search/tests`',
    method: 'GET',
    path: (r) => `${ci(r)}/search/tests`,
    accepted: STD,
    why: 'spec: STD; `tests show` is run by people',
  },
  {
    label: '`GET …/tests/{id}`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/${TEST_ID}`,
    accepted: STD,
    why: 'spec: STD; `tests show` is run by people',
  },
  {
    label: '`GET …/tests/{id}/stats/{stat}`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/${TEST_ID}/stats/success_count`,
    accepted: STD,
    why: 'spec: STD',
  },
  {
    label: '`GET …/tests/{id}/health-transitions`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/${TEST_ID}/health-transitions`,
    accepted: STD,
    why: 'spec: STD',
  },
  {
    label: '`GET …/tests/{id}/failures`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/${TEST_ID}/failures`,
    accepted: STD,
    why: 'spec: STD',
  },
  {
    label: '`GET …/tests/{id}/failures/{failure_id}`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/${TEST_ID}/failures/${TEST_ID}`,
    accepted: STD,
    why: 'spec: STD',
  },
  {
    label: '`GET …/tests/{id}/executions`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/${TEST_ID}/executions`,
    accepted: STD,
    why: 'spec: STD',
  },
  {
    label: '`GET …/tests/stats/{stat}`',
    method: 'GET',
    path: (r) => `${ci(r)}/tests/stats/total_tests`,
    accepted: STD,
    why: 'spec: STD',
  },
  {
    label: '`GET …/auto-quarantine`',
    method: 'GET',
    path: (r) => `${ci(r)}/auto-quarantine`,
    accepted: STD,
    why: 'not in the spec; a repository setting, as freezes',
  },
  {
    label: '`PUT …/auto-quarantine`',
    method: 'PUT',
    path: (r) => `${ci(r)}/auto-quarantine`,
    body: { enabled: false },
    accepted: STD,
    why: 'not in the spec; a repository setting, as freezes',
  },
];

describe('who may call what on the test engine (issue 35 scope 4)', () => {
  let app: TestApp;
  const tokens = {} as Record<Credential, string>;

  beforeAll(async () => {
    app = await startTestApp({
      SWITCHYARD_HOST_TOKENS: JSON.stringify({
        [HOST_TOKEN]: { user: { id: 8080, login: 'matrix-person' }, accounts: ['acme'] },
      }),
    });
    tokens['admin key'] = app.adminKey;
    tokens['ci key'] = await app.createKey('ci');
    tokens['service token'] = await app.issueServiceToken();
    tokens['host token'] = HOST_TOKEN;
  }, 120_000);
  afterAll(() => app?.close());

  describe.each(OPERATIONS.map((operation) => [operation.label, operation] as const))(
    '%s',
    (_, operation) => {
      it.each(CREDENTIALS)('%s', async (credential) => {
        const repository = uniqueRepository('auth-matrix');
        const response = await app.request(operation.method, operation.path(repository), {
          token: tokens[credential],
          ...(operation.body === undefined ? {} : { body: operation.body }),
          ...(operation.rawBody === undefined ? {} : { rawBody: operation.rawBody }),
          ...(operation.headers ? { headers: operation.headers } : {}),
        });
        if (operation.accepted.includes(credential)) {
          // Let in: whatever the request itself deserves (200, 404 for an unknown id, 4xx for a body).
          expect(response.status).not.toBe(403);
          return;
        }
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: REFUSED[credential] });
        expect(response.headers.get('retry-after')).toBeNull();
      });

      it('refuses no credential at all', async () => {
        const response = await app.request(
          operation.method,
          operation.path(uniqueRepository('auth-matrix')),
          {
            token: null,
          },
        );
        expect(response.status).toBe(403);
        expect(response.body).toEqual({
          detail: 'Authentication required: send Authorization: Bearer <application key or token>',
        });
      });
    },
  );

  it('is the table of docs/test-engine.md, row by row', () => {
    const readme = readFileSync(join(__dirname, '../../../docs/test-engine.md'), 'utf8');
    const rows = readme
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    for (const operation of OPERATIONS) {
      const cells = CREDENTIALS.map((credential) =>
        operation.accepted.includes(credential) ? 'yes' : '403',
      );
      expect(rows).toContainEqual([operation.label, ...cells, operation.why]);
    }
  });
});
