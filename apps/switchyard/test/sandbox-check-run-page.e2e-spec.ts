import { scaledWait } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

interface CheckRun {
  id: number;
  conclusion: string | null;
  details_url: string;
  html_url: string;
}

/** What a browser gets at a link: no token, whatever answer comes. */
async function open(url: string): Promise<{ status: number; type: string | null; html: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), html: await response.text() };
}

describe('sandbox check run pages (all-in-one app, sandbox mode)', () => {
  jest.setTimeout(120_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());

  it("serves a sandbox CI run's verdict, timing and log at the details_url it reports", async () => {
    const team = new SandboxTeam(app, uniqueRepository('check-page'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    const number = await team.openChange('broken', { failing: true });
    // Bounded within the test's timeout: a run that never finishes is named, not left to jest's timeout.
    await team.until(
      'the CI run on the pull request finished',
      async () => {
        const conclusions = await team.checksOf(number);
        return conclusions.length > 0 && conclusions.every((conclusion) => conclusion !== null);
      },
      scaledWait(60_000),
    );
    const { body: pull } = await team.forge('GET', `/pulls/${number}`);
    const { body } = await team.forge<{ check_runs: CheckRun[] }>(
      'GET',
      `/commits/${pull.head.sha}/check-runs`,
    );
    const [run] = body.check_runs;
    expect(run!.conclusion).toBe('failure');
    expect(run!.details_url).toBe(run!.html_url);

    const page = await open(run!.details_url);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.html).toContain('<h1>ci <span class="failure">failure</span></h1>');
    expect(page.html).toContain('<dt>Duration</dt><dd>0 s</dd>');
    expect(page.html).toContain(`<dt>Commit</dt><dd>${pull.head.sha}</dd>`);
    expect(page.html).toContain('changes/broken.txt: sandbox-ci fail');
    expect(page.html).toContain('Finished: failure.');
    // A finished run's page stays as it is; only a running one reloads itself.
    expect(page.html).not.toContain('http-equiv="refresh"');
  });

  it("escapes what a client reported, and answers 404 for a run that is not the repository's", async () => {
    const team = new SandboxTeam(app, uniqueRepository('check-page-client'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    const { body: main } = await team.forge('GET', '/git/ref/heads/main');
    const created = await team.forge<CheckRun>('POST', '/check-runs', {
      name: 'lint <script>alert(1)</script>',
      head_sha: main.object.sha,
      status: 'in_progress',
      output: {
        title: 'Linting',
        summary: 'a </pre><img src=x onerror=alert(1)> b',
        text: '"quoted" & more',
      },
    });
    expect(created.status).toBe(201);

    const page = await open(created.body.details_url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('lint &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).toContain('a &lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt; b');
    expect(page.html).toContain('&quot;quoted&quot; &amp; more');
    expect(page.html).not.toContain('<script>');
    expect(page.html).not.toContain('<img');
    expect(page.html).toContain('http-equiv="refresh"');

    const other = new SandboxTeam(app, uniqueRepository('check-page-other'));
    await other.commitFile('main', 'README.md', '# gadgets\n');
    const elsewhere = created.body.details_url.replace(team.repository, other.repository);
    const notFound = (detail: string) => ({
      status: 404,
      type: 'application/json; charset=utf-8',
      html: JSON.stringify({ detail }),
    });
    expect(await open(elsewhere)).toEqual(notFound(`No check run ${created.body.id} in ${other.repository}`));
    expect(await open(created.body.details_url.replace(/\/runs\/\d+$/, '/runs/999999999'))).toEqual(
      notFound(`No check run 999999999 in ${team.repository}`),
    );
    expect(await open(created.body.details_url.replace(/\/runs\/\d+$/, '/runs/x1'))).toEqual(
      notFound(`No check run x1 in ${team.repository}`),
    );
  });
});
