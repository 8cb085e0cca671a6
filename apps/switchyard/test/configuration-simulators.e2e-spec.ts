import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * The configuration and repository simulators over HTTP against the all-in-one app (spec
 * "Simulator"): valid files with their deprecations, 422 bodies naming each problem's path and
 * line, the 1,048,576-character limit, and who may call them.
 */
describe('configuration simulators over HTTP (all-in-one app)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const CONFIGURATION = [
    'queue_rules:',
    '  - name: hotfix',
    '    queue_conditions:',
    '      - label=hotfix',
    '    merge_conditions:',
    '      - check-success=ci',
    '  - name: default',
    '    conditions:',
    '      - check-success=ci',
    '    batch_size: 3',
    '    batch_max_wait_time: 5 min',
    'priority_rules:',
    '  - name: security',
    '    conditions: [label=security]',
    '    priority: high',
    'pull_request_rules:',
    '  - name: queue approved pull requests',
    '    conditions:',
    '      - "#approved-reviews-by>=1"',
    '    actions:',
    '      queue:',
    '',
  ].join('\n');

  const simulate = (path: string, mergifyYml: unknown, token?: string | null) =>
    app.request('POST', `/v1/repos/${uniqueRepository('simulator')}/${path}`, {
      body: { mergify_yml: mergifyYml },
      token,
    });

  it('answers 200 with the message and the deprecations of a valid file', async () => {
    const response = await simulate('configuration-simulator', CONFIGURATION);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'The configuration is valid',
      deprecations: [
        {
          message: expect.stringContaining('merge_conditions'),
          deadline: '2026-07-31',
          path_to_field: ['queue_rules', '1', 'conditions'],
        },
      ],
    });
  });

  it('answers the client-contract example (E14) as documented', async () => {
    const response = await simulate('configuration-simulator', 'queue_rules: []\n');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'The configuration is valid', deprecations: [] });
  });

  it('names what it cannot apply in the message', async () => {
    const response = await simulate('configuration-simulator', 'extends: acme/.github\n');
    expect(response.status).toBe(200);
    expect(response.body.message).toMatch(
      /^The configuration is valid\. extends 'acme\/\.github' is not applied/,
    );
  });

  it('explains the configuration in the repository simulator summary', async () => {
    const response = await simulate('simulator', CONFIGURATION);
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('The configuration is valid');
    expect(response.body.deprecations).toHaveLength(1);
    const summary: string = response.body.summary;
    expect(summary).toContain('### Queue rules (in processing order)');
    expect(summary.indexOf('1. **hotfix**')).toBeLessThan(summary.indexOf('2. **default**'));
    expect(summary).toContain('Batches of 3 pull requests, waiting at most 5 minutes to fill');
    expect(summary).toContain('- **security**: high (3000)');
    expect(summary).toContain(
      '**queue approved pull requests** (queue) → queue the first queue rule that matches',
    );
  });

  it('answers 422 listing every problem with its path and line', async () => {
    const text = [
      'queue_rules:',
      '  - name: default',
      '    batch_size: 500',
      '    checks_timeout: 10 s',
      'pull_request_rules:',
      '  - name: merge',
      '    conditions:',
      '      - colour=red',
      '    actions:',
      '      queue:',
      '        name: missing',
    ].join('\n');
    for (const path of ['configuration-simulator', 'simulator']) {
      const response = await simulate(path, text);
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        expect.objectContaining({
          type: 'mergify_config_error',
          loc: ['body', 'mergify_yml'],
          msg: 'queue_rules[0].batch_size (line 3, column 5): must be between 1 and 128, got 500',
          ctx: { path: 'queue_rules[0].batch_size', line: 3, column: 5 },
        }),
        expect.objectContaining({ ctx: { path: 'queue_rules[0].checks_timeout', line: 4, column: 5 } }),
        expect.objectContaining({
          msg: expect.stringMatching(
            /^pull_request_rules\[0\]\.conditions\[0\] \(line 8, column 9\): Invalid condition 'colour=red'/,
          ),
        }),
      ]);
    }
  });

  it('answers 422 for a key past its removal date, with its line, replacement and date (issue 35)', async () => {
    const response = await simulate(
      'configuration-simulator',
      'pull_request_rules:\n  - name: q\n    conditions: []\n    actions:\n      queue:\n        method: squash\n',
    );
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([
      expect.objectContaining({
        type: 'mergify_config_error',
        msg: expect.stringMatching(
          /^pull_request_rules\[0\]\.actions\.queue\.method \(line 6, column 9\): removed from Mergify's configuration on 2025-06-24\. .*queue_rules/,
        ),
      }),
    ]);
    const v1 = await simulate('configuration-simulator', 'rules:\n  default: {}\n');
    expect(v1.status).toBe(422);
    expect(v1.body.detail[0].msg).toMatch(/^rules \(line 1, column 1\): removed/);
  });

  it('answers 422 for a file that is not YAML, with the line', async () => {
    const response = await simulate('configuration-simulator', 'queue_rules:\n  - name: "unterminated\n');
    expect(response.status).toBe(422);
    expect(response.body.detail[0]).toMatchObject({
      type: 'mergify_config_error',
      msg: expect.stringMatching(/^\(root\) \(line \d+, column \d+\): Invalid YAML: /),
    });
  });

  it('refuses a mergify_yml over 1,048,576 characters, and a missing one', async () => {
    const tooLong = await simulate('configuration-simulator', `# ${'x'.repeat(1_048_575)}`);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail).toEqual([
      expect.objectContaining({
        type: 'string_too_long',
        loc: ['body', 'mergify_yml'],
        ctx: { max_length: 1_048_576 },
      }),
    ]);
    const exactlyMax = await simulate('configuration-simulator', `#${'x'.repeat(1_048_575)}`);
    expect(exactlyMax.status).toBe(200);

    const missing = await app.request('POST', `/v1/repos/${uniqueRepository('simulator')}/simulator`, {
      body: {},
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      expect.objectContaining({ type: 'missing', loc: ['body', 'mergify_yml'] }),
    ]);
    const notText = await simulate('simulator', 42);
    expect(notText.status).toBe(422);
    expect(notText.body).toEqual({
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'mergify_yml'],
          msg: 'Input should be a valid string',
          input: 42,
        },
      ],
    });
  });

  it('takes an admin key, a service token or a host token; refuses a ci key and no credential', async () => {
    const ciKey = await app.createKey('ci');
    const withCiKey = await simulate('configuration-simulator', 'queue_rules: []\n', ciKey);
    expect(withCiKey.status).toBe(403);
    expect(withCiKey.body).toEqual({ detail: 'This endpoint does not accept CI application keys' });
    const anonymous = await simulate('configuration-simulator', 'queue_rules: []\n', null);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({
      detail: 'Authentication required: send Authorization: Bearer <application key or token>',
    });
    const serviceToken = await app.issueServiceToken();
    expect((await simulate('simulator', 'queue_rules: []\n', serviceToken)).status).toBe(200);
  });
});
