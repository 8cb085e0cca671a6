import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Issue 33 §6: configuration text follows the one rule for text. A `.mergify.yml` with a NUL or a
 * lone surrogate answers 422 naming `mergify_yml` in all three simulators (each called it valid).
 */
describe('configuration text at the simulators (all-in-one app)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  type Issue = { type: string; loc: string[]; msg: string };

  it.each([
    ['configuration-simulator', 'a NUL', 'queue_rules:\n  - name: default\u0000\n', 'NUL character'],
    [
      'simulator',
      'a NUL',
      'queue_rules:\n  - name: default\n    merge_conditions: [label=a\u0000]\n',
      'NUL character',
    ],
    ['pulls/1/simulator', 'a NUL', 'pull_request_rules: []\n#\u0000\n', 'NUL character'],
    [
      'configuration-simulator',
      'a lone surrogate',
      'queue_rules:\n  - name: x\uD800\n',
      'lone UTF-16 surrogate',
    ],
  ])('%s refuses a file with %s: 422 naming mergify_yml', async (path, _, mergifyYml, problem) => {
    const response = await app.request<{ detail: Issue[] }>(
      'POST',
      `/v1/repos/${uniqueRepository('config-text')}/${path}`,
      { body: { mergify_yml: mergifyYml } },
    );
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([
      expect.objectContaining({
        type: 'value_error',
        loc: ['body', 'mergify_yml'],
        msg: expect.stringContaining(problem),
      }),
    ]);
  });
});
