import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaledWait, testChromiumPath } from '@switchyard/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildDashboard, startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

const chromiumPath = testChromiumPath();
const describeInBrowser = chromiumPath ? describe : describe.skip;

const ROOT = join(__dirname, '..', '..', '..');
/** Where screens are kept: the README's, when asked for (SWITCHYARD_SCREENSHOTS=1), else a scratch folder. */
const SCREENS =
  process.env.SWITCHYARD_SCREENSHOTS === '1'
    ? join(ROOT, 'docs', 'screenshots')
    : join(tmpdir(), 'switchyard-screens');

/**
 * The dashboard in a real browser (Debian's chromium, driven by playwright-core) against the
 * all-in-one app in sandbox mode: a team's queue drains while the page watches, without reloads.
 */
describeInBrowser('dashboard in a browser (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let team: SandboxTeam;

  const screen = (name: string) => page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
  const signIn = async (credential: string) => {
    await page.goto(`${app.baseUrl}/ui/sign-in`);
    await page.getByLabel('Application key or token').fill(credential);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Merge queues' }).waitFor();
  };
  const queuePage = () => `${app.baseUrl}/ui/repos/${team.repository}/queues/main`;

  beforeAll(async () => {
    buildDashboard();
    mkdirSync(SCREENS, { recursive: true });
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '2' });
    // The engine decides on the system clock; answers about "now" must not see its events as future.
    app.clock.set(new Date(Date.now() + 24 * 3600_000));
    browser = await chromium.launch({ executablePath: chromiumPath!, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Playwright's own waits (30 s by default) stretch with the machine's load, as jest's do.
    page.setDefaultTimeout(scaledWait(30_000));
    team = new SandboxTeam(app, uniqueRepository('dashboard'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('a page without a session redirects to sign-in', async () => {
    await page.goto(`${app.baseUrl}/ui/repos/${team.repository}/queues/main`);
    expect(new URL(page.url()).pathname).toBe('/ui/sign-in');
    await page.getByLabel('Application key or token').waitFor();
    await screen('sign-in');
  });

  it('signs in, and watches a pull request go from queued to merged without a reload', async () => {
    await signIn(app.adminKey);
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'switchyard_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
    const first = await team.openChange('first');
    const second = await team.openChange('second');
    await team.comment(first, '@mergify queue');
    // The queue exists once its first pull request entered: the page opens on it.
    await team.until('the queue to exist', async () => (await team.queueEvents()).length > 0);
    await page.goto(queuePage());
    // Set in the page once: still there at the end only if the page never reloaded.
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    await team.comment(second, '@mergify queue');

    const inQueue = (number: number) =>
      page.locator('#main').getByRole('link', { name: `#${number}`, exact: true });
    // A merged batch stays listed, marked merged, until the next one starts.
    const mergedCar = (number: number) =>
      page
        .getByTestId('batch')
        .filter({ has: page.getByRole('link', { name: `#${number}`, exact: true }) })
        .getByText('Merged', { exact: true });
    await inQueue(second).waitFor({ timeout: scaledWait(120_000) });
    const secondQueuedAt = Date.now();
    expect(await mergedCar(second).count()).toBe(0);
    await screen('queue');
    await team.until(`#${second} to merge`, async () => (await team.pull(second)).merged);
    await mergedCar(second).waitFor({ timeout: scaledWait(120_000) });
    expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);

    // The time slider shows the past: #second in the queue, not merged yet, and the page not live.
    // A whole number of seconds back to no earlier than when the page showed it queued, not merged.
    const secondsAgo = Math.floor((Date.now() - secondQueuedAt) / 1000);
    await page
      .locator('#time-slider')
      .evaluate((input: { value: string; dispatchEvent(event: Event): boolean }, value) => {
        input.value = String(value);
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, -secondsAgo);
    await page.getByRole('button', { name: 'Back to live' }).waitFor();
    await mergedCar(second).waitFor({ state: 'detached', timeout: scaledWait(60_000) });
    await inQueue(second).waitFor();
    expect(await page.getByTestId('time-shown').textContent()).not.toBe('Live');
    await screen('queue-in-the-past');
    await page.getByRole('button', { name: 'Back to live' }).click();
    await mergedCar(second).waitFor();

    await page.goto(`${app.baseUrl}/ui/repos/${team.repository}/pulls/${second}`);
    await page.getByText('Merged by the queue').waitFor({ timeout: scaledWait(60_000) });
  });

  it('the repositories page shows each queue at a glance', async () => {
    await page.goto(`${app.baseUrl}/ui`);
    await page.getByRole('heading', { name: team.repository }).waitFor();
    await page.getByRole('link', { name: 'main' }).first().waitFor();
    await screen('repositories');
  });

  it('a failing pull request shows its dequeue reason in plain words', async () => {
    const failing = await team.openChange('failing', { failing: true });
    await team.comment(failing, '@mergify queue');
    await team.until(`#${failing} to leave the queue`, async () =>
      (await team.queueEvents()).some(
        (event) => event.type === 'merge_queue.pull_request_left' && event.data['pullRequest'] === failing,
      ),
    );
    await page.goto(`${app.baseUrl}/ui/repos/${team.repository}/pulls/${failing}`);
    const reason = page.getByTestId('dequeue-reason');
    await reason.waitFor({ timeout: scaledWait(60_000) });
    expect(await reason.textContent()).toMatch(/Left the queue without merging\. \S/);
    await screen('pull-request');
  });

  it("a queue's statistics page shows what the statistics endpoint counts, linked from the queue", async () => {
    const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    const statistics = () =>
      app.request(
        'GET',
        `/v1/repos/${team.repository}/merge-queue/statistics?branch=main&since=${since}&until=${until}`,
      );
    // The page reads once: it opens when the read model holds the merges and the failed one.
    await team.until('the statistics to hold the merges and the dequeue', async () => {
      const { body } = await statistics();
      return body.merged >= 2 && body.dequeue_reasons.length > 0;
    });
    const counted = await statistics();
    await page.goto(queuePage());
    await page.getByRole('link', { name: 'Statistics' }).click();
    await page.getByRole('heading', { level: 1, name: /^Statistics of / }).waitFor();
    const [reason] = counted.body.dequeue_reasons as { reason: string; count: number }[];
    await page
      .getByTestId('statistics-merged')
      .filter({ hasText: new RegExp(`^${counted.body.merged}$`) })
      .waitFor();
    await page.getByTestId('dequeue-reason').filter({ hasText: reason!.reason }).waitFor();
    expect(
      await page.getByTestId('batch-outcome').filter({ hasText: 'Checks failed' }).textContent(),
    ).toMatch(/[1-9]\d*$/);
    expect(await page.getByTestId('statistics-p50').textContent()).not.toBe('—');
    await page.locator('.uplot canvas').first().waitFor();
    // The window is a keyboard-reachable select; a longer window counts at least as much.
    await page.getByLabel('Window').selectOption('7d');
    expect(new URL(page.url()).search).toBe('?window=7d');
    await page
      .getByTestId('statistics-merged')
      .filter({ hasText: new RegExp(`^${counted.body.merged}$`) })
      .waitFor();
    await page.getByLabel('Window').selectOption('24h');
    await screen('statistics');
  });

  it("the activity log filters the API's events and draws logs/aggregate's histogram", async () => {
    await page.goto(`${app.baseUrl}/ui/repos/${team.repository}/logs`);
    await page
      .getByTestId('log-row')
      .first()
      .waitFor({ timeout: scaledWait(60_000) });
    await page.getByLabel('Event type').fill('action.queue.leave');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page
      .getByTestId('log-total')
      .filter({ hasText: /^3 events/ })
      .waitFor();
    expect(await page.getByTestId('log-row').count()).toBe(3);
    await page.locator('.uplot canvas').first().waitFor();
    await screen('activity-log');
  });

  it("a failed batch's bisection is drawn as a tree on its pull requests' pages", async () => {
    const batching = new SandboxTeam(app, uniqueRepository('dashboard-bisection'));
    await batching.commitFile('main', 'README.md', '# widgets\n');
    await batching.commitFile(
      'main',
      '.mergify.yml',
      'queue_rules:\n  - name: default\n    batch_size: 4\n    batch_max_wait_time: 5 s\n',
    );
    const numbers: number[] = [];
    for (const index of [1, 2, 3, 4])
      numbers.push(await batching.openChange(`change-${index}`, { failing: index === 3 }));
    for (const number of numbers) await batching.comment(number, '@mergify queue');
    const culprit = numbers[2];
    await batching.until(
      `#${culprit} to leave the queue`,
      async () =>
        (await batching.queueEvents()).some(
          (event) => event.type === 'merge_queue.pull_request_left' && event.data['pullRequest'] === culprit,
        ),
      300_000,
    );
    await signIn(app.adminKey);
    await page.goto(`${app.baseUrl}/ui/repos/${batching.repository}/pulls/${culprit}`);
    const tree = page.getByTestId('bisection-tree');
    await tree.waitFor({ timeout: scaledWait(60_000) });
    await page.getByText(`culprit #${culprit}`).waitFor();
    // The root is the failed batch of four; below it, the batches checked on parts of it.
    expect(await tree.getByTestId('bisection-batch').count()).toBeGreaterThan(1);
    await tree.getByRole('link', { name: `#${culprit} (culprit)` }).waitFor();
    await screen('bisection');
  });

  it("lists the repository's tests, opens one, quarantines it and lifts the quarantine", async () => {
    const tests = `/v1/ci/${team.repository.replace('/', '/repositories/')}`;
    const uploaded = await app.request(
      'POST',
      `${tests}/junit?pipeline_name=ci&job_name=unit&head_sha=dashboard1&branch=main`,
      {
        token: await app.createKey('ci'),
        headers: { 'content-type': 'application/xml' },
        rawBody: readFileSync(join(ROOT, 'docs', 'examples', 'junit-failed.xml'), 'utf8'),
      },
    );
    expect(uploaded.status).toBe(200);
    await team.until('the uploaded tests to be searchable', async () => {
      const found = await app.request('GET', `${tests}/search/tests`);
      return found.body.total === 2;
    });

    await page.goto(`${app.baseUrl}/ui/repos/${team.repository}/tests`);
    await page
      .getByTestId('test-row')
      .nth(1)
      .waitFor({ timeout: scaledWait(60_000) });
    expect(await page.getByTestId('test-row').count()).toBe(2);
    // The health the engine gives one failed run is its own call: the page filters on whatever it is.
    const failing = (await app.request('GET', `${tests}/search/tests?test_name=*test_payment`)).body.tests[0];
    const health: string = failing.metrics.health_status;
    const expected = (await app.request('GET', `${tests}/search/tests?health_status=${health}`)).body.total;
    await page.getByRole('checkbox', { name: health }).check();
    await page.getByRole('button', { name: 'Filter' }).click();
    await page
      .getByTestId('tests-total')
      .filter({ hasText: `${expected} tests` })
      .waitFor();
    expect(await page.getByTestId('test-row').filter({ hasText: 'test_payment' }).count()).toBe(1);
    await page.getByRole('checkbox', { name: health }).uncheck();
    await page.getByRole('button', { name: 'Filter' }).click();
    await page
      .getByTestId('tests-total')
      .filter({ hasText: /^2 tests$/ })
      .waitFor();
    await screen('tests');

    await page.getByRole('link', { name: /test_payment$/ }).click();
    await page.getByRole('heading', { level: 1, name: /test_payment$/ }).waitFor();
    await page.getByTestId('failure-row').filter({ hasText: 'TimeoutError' }).waitFor();
    await page.getByTestId('health-transitions').waitFor();
    await page.getByLabel('Reason').fill('the payment gateway sandbox is down');
    await page.getByRole('button', { name: 'Quarantine', exact: true }).click();
    await page.getByTestId('quarantine').filter({ hasText: 'the payment gateway sandbox is down' }).waitFor();
    await screen('test');
    await page.getByRole('button', { name: 'Remove quarantine' }).click();
    await page.getByTestId('quarantine').waitFor({ state: 'detached' });
    await page.getByText('Not quarantined.').waitFor();
    const left = await app.request('GET', `${tests}/quarantines`);
    expect(left.body.quarantined_tests).toEqual([]);
  });

  it('the configuration simulator shows each problem with its line and column', async () => {
    await page.goto(`${app.baseUrl}/ui/repos/${team.repository}/simulator`);
    await page
      .getByLabel('.mergify.yml')
      .fill('queue_rules:\n  - name: default\n    batch_size: 500\n    checks_timeout: 10 s\n');
    await page.getByRole('button', { name: 'Check the configuration' }).click();
    const problem = page.getByTestId('configuration-problem').first();
    await problem.waitFor({ timeout: scaledWait(60_000) });
    expect(await problem.textContent()).toMatch(/^line 3, column 5queue_rules\[0\]\.batch_size/);
    expect(await page.getByTestId('configuration-problem').count()).toBe(2);
    await screen('simulator');
    await page.getByLabel('.mergify.yml').fill('queue_rules:\n  - name: default\n');
    await page.getByLabel('Pull requests arriving').fill('6/h');
    await page.getByRole('button', { name: 'Check the configuration' }).click();
    await page.getByText('The configuration is valid').waitFor();
    // …and what `switchyard simulate` estimates for it.
    const estimate = page.getByTestId('throughput-estimate');
    await estimate.waitFor({ timeout: scaledWait(60_000) });
    expect(await estimate.textContent()).toMatch(/Throughput\d+\.\d\d merged per hour/);
    expect(await estimate.textContent()).toContain('6/h arriving');
    await screen('simulator-estimate');
  });

  it('renders the first page of a 500-pull-request queue (measured, not asserted)', async () => {
    const waiting = Array.from({ length: 500 }, (_, index) => ({
      number: 1000 + index,
      title: `Change ${index}`,
      url: `https://example.test/pull/${1000 + index}`,
      author: { id: 1, login: 'ada' },
      queued_at: new Date().toISOString(),
      priority_alias: 'medium',
      priority_rule_name: 'default',
      labels: [],
      scopes: ['api'],
      estimated_merge_at: null,
    }));
    // The status API's answer for a queue of 500 waiting pull requests, in its own shape.
    await page.route('**/merge-queue/status?**', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ batches: [], waiting_pull_requests: waiting, mode: 'serial', pause: null }),
      }),
    );
    await page.goto(queuePage());
    await page.getByTestId('waiting').nth(499).waitFor();
    const renderedMs = await page.evaluate(() => performance.now());
    process.stderr.write(
      `[dashboard] a 500-pull-request queue rendered ${Math.round(renderedMs)} ms after navigation\n`,
    );
    await page.unroute('**/merge-queue/status?**');
  });

  it('a CI key signs in but is refused where the API refuses it; signing out ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Application key or token').waitFor();
    await page.goto(`${app.baseUrl}/ui`);
    expect(new URL(page.url()).pathname).toBe('/ui/sign-in');

    await page.getByLabel('Application key or token').fill(await app.createKey('ci'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Merge queues' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Refused (403)' }).waitFor();
    await page.goto(queuePage());
    await page.getByRole('alert').filter({ hasText: 'does not accept CI application keys' }).waitFor();
    await screen('refused-ci-key');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Application key or token').waitFor();
  });
});
