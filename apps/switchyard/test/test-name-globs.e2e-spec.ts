import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * A `test_name` glob is the caller's text, matched against every stored name its literal prefix
 * lets through. Matched by a backtracking regular expression (picomatch, before), a glob such as
 * `*a*a*a*a*a*a*a*a*b` took seconds per name of forty `a` (5 to 17 s on this machine), holding
 * the event loop: no other request, /healthz included, was answered meanwhile, and this test
 * never finished (thirty such names: minutes). Matched by RE2, time is linear in the name, and the
 * service answers beside such a search.
 */
describe('test_name globs that would backtrack', () => {
  jest.setTimeout(60_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);
  afterAll(() => app?.close());

  it('/healthz answers while the search runs, and the search answers what the glob matches', async () => {
    const repository = uniqueRepository('globs');
    const base = `/v1/ci/${repository.replace('/', '/repositories/')}`;
    const names = Array.from({ length: 30 }, (_, i) => `${'a'.repeat(40)}${i}`);
    const xml = `<testsuites><testsuite name="suite">${names
      .map((name) => `<testcase classname="suite" name="${name}" time="0.1"/>`)
      .join('')}</testsuite></testsuites>`;
    const ciKey = await app.createKey('ci');
    const uploaded = await app.request(
      'POST',
      `${base}/junit?pipeline_name=ci&job_name=unit&head_sha=c0ffee&branch=main`,
      { token: ciKey, headers: { 'content-type': 'application/xml' }, rawBody: xml },
    );
    expect(uploaded.status).toBe(200);

    const search = (glob: string) =>
      app.request('GET', `${base}/search/tests?per_page=100&test_name=${encodeURIComponent(glob)}`);
    const searching = search('*a*a*a*a*a*a*a*a*b');
    const health = await app.request('GET', '/healthz', { token: null });
    expect(health.status).toBe(200);
    const searched = await searching;
    expect(searched.status).toBe(200);
    expect(searched.body.tests).toEqual([]);

    const found = await search('suite.*a*a*a*a*a*a*a*a*1?');
    expect(found.body.tests.map((test: { test_name: string }) => test.test_name).sort()).toEqual(
      names.filter((name) => /1\d$/.test(name)).map((name) => `suite.${name}`),
    );
  });
});
