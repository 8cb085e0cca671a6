import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

const labelRule = (queueRuleLines: string[]) =>
  [
    'queue_rules:',
    '  - name: default',
    ...queueRuleLines,
    'pull_request_rules:',
    '  - name: automatic queue',
    '    conditions:',
    '      - label=ready',
    '    actions:',
    '      queue:',
    '',
  ].join('\n');

/** `speculative_checks` was removed from queue rules on 2025-06-24: the file is invalid. */
const INVALID = labelRule(['    speculative_checks: 2']);
const VALID = labelRule(['    batch_size: 1']);

interface CheckRun {
  name: string;
  conclusion: string | null;
  output: { title: string | null; summary: string | null };
}

/**
 * An invalid `.mergify.yml` on the default branch, as Mergify treats it (docs/invalid-configuration.md):
 * the queue takes nothing in and says why on the pull request; once the file is fixed, it resumes.
 * End to end over HTTP with the sandbox forge.
 */
describe('merge queue under an invalid configuration (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());

  it('queues no labelled pull request while the file is invalid, shows the verdict on its checks, and queues it once fixed', async () => {
    const team = new SandboxTeam(app, uniqueRepository('invalid-configuration'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', INVALID);
    const number = await team.openChange('waiting');
    const labelled = await team.forge('POST', `/issues/${number}/labels`, { labels: ['ready'] });
    expect(labelled.status).toBe(200);

    const runs = async (): Promise<CheckRun[]> => {
      const { body: pull } = await team.forge('GET', `/pulls/${number}`);
      const { body } = await team.forge('GET', `/commits/${pull.head.sha}/check-runs`);
      return body.check_runs as CheckRun[];
    };
    const verdict = async () =>
      (await runs()).find(
        (run) =>
          run.name === 'Mergify Merge Queue' &&
          run.output.title === 'The current Mergify configuration is invalid',
      );
    await team.until(
      'the failing configuration check on the pull request',
      async () => (await verdict()) !== undefined,
    );
    const check = (await verdict())!;
    expect(check.conclusion).toBe('failure');
    expect(check.output.summary).toContain('The current Mergify configuration (.mergify.yml) is invalid:');
    expect(check.output.summary).toMatch(/speculative_checks.*\(line 3, column 5\)/);

    // A command is not run either: once the intake has read it, nothing entered the queue.
    await team.comment(number, '@mergify queue');
    await team.until('the command to be accepted', async () => {
      const stream = `github_pull_request-${team.repository}#${number}`;
      const { events } = await app.running.storage.store.readStream(stream);
      return events.some((e) => e.type === 'github.command_accepted');
    });
    const head = await app.running.storage.store.headPosition();
    expect(await app.running.projections!.waitFor(['merge_queue.intake'], head, 120_000)).toBe(true);
    const entered = async () =>
      (await team.queueEvents()).filter(
        (e) => e.type === 'merge_queue.pull_request_entered' && e.data.pullRequest === number,
      ).length;
    expect(await entered()).toBe(0);

    await team.commitFile('main', '.mergify.yml', VALID);
    await team.until(
      'the pull request to be queued once the file is valid',
      async () => (await entered()) === 1,
    );
    await team.until('the pull request to merge', async () => (await team.pull(number)).merged);
  });
});
