import { CODE_HOST, type CodeHost } from '@switchyard/code-host';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/**
 * Issue 32 defect 6: one code-host client per installation per process. The HTTP features, the
 * pull-request reader and the engine share one code host, so its request meter (and its
 * throttle) counts every call the process makes.
 */
describe('one code host per process', () => {
  jest.setTimeout(300_000);
  let app: TestApp;
  afterAll(() => app?.close());

  it('the engine, the reactors and the HTTP features count against one client', async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
    const team = new SandboxTeam(app, uniqueRepository('one-host'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const change = await team.openChange('first');
    await team.comment(change, '@mergify queue');
    await team.until('merged', async () => (await team.pull(change)).merged);

    const shared = app.running.app.get<CodeHost>(CODE_HOST);
    const engine = app.running.mergeQueue!.telemetry;
    // The engine's own record of its calls is a part of what the one client counted.
    expect(engine.calls.length).toBeGreaterThan(0);
    expect(shared.usage()).toEqual(engine.usage);
    expect(shared.usage().calls).toBeGreaterThanOrEqual(engine.calls.length);
  });
});
