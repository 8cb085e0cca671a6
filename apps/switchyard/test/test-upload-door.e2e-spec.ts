import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Issue 33 §6 at the test-result routes: a JUnit report that is not XML 1.0 (a NUL or a surrogate
 * by reference, bytes that are not UTF-8) answers 400, and a compressed body is capped by what it
 * inflates to on every upload route (413), before anything is decoded or recorded.
 */
describe('the test-result upload door (all-in-one app)', () => {
  jest.setTimeout(120_000);
  let app: TestApp;
  /** 64 MiB of zeros, gzipped: 64 KiB on the wire. */
  let zeros64: Buffer;

  beforeAll(async () => {
    app = await startTestApp();
    zeros64 = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  }, 120_000);
  afterAll(() => app?.close());

  /** Test uploads recorded so far (the forge may record facts of its own meanwhile: a new repository). */
  const uploads = async () =>
    (
      await app.running.storage.store.readAll({
        after: 'start',
        limit: 10_000,
        filter: { eventTypes: ['test_results.recorded'] },
      })
    ).events.length;
  const routes = (repository: string) => {
    const [owner, name] = repository.split('/');
    return {
      junit: `/v1/ci/${owner}/repositories/${name}/junit?pipeline_name=ci&job_name=unit&head_sha=abc&branch=main`,
      reporter: `/v1/ci/${owner}/repositories/${name}/traces`,
      cli: `/v1/repos/${owner}/${name}/ci/traces`,
    };
  };

  async function upload(path: string, body: Buffer, headers: Record<string, string>) {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.adminKey}`, ...headers },
      body,
    });
    return { status: response.status, body: (await response.json()) as { detail?: string } };
  }

  const xml = (name: string) => `<testsuite name="s"><testcase classname="t" name="${name}"/></testsuite>`;

  it.each([
    ['a NUL by reference', Buffer.from(xml('a&#0;b')), /&#0; \(U\+0000\)/],
    ['a lone surrogate by reference', Buffer.from(xml('a&#xD800;b')), /&#xD800; \(U\+D800\)/],
    ['bytes that are not UTF-8', Buffer.from(xml('a\u00ff\u00fe'), 'latin1'), /not valid utf-8/],
  ])('refuses a JUnit report with %s: 400, nothing recorded (it was recorded)', async (_, body, detail) => {
    const before = await uploads();
    const answer = await upload(routes(uniqueRepository('junit-text')).junit, body, {
      'content-type': 'application/xml',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toMatch(detail);
    expect(await uploads()).toBe(before);
  });

  it.each(['junit', 'reporter', 'cli'] as const)(
    'caps a gzipped body by what it inflates to on the %s route: 413 (OTLP answered 200)',
    async (route) => {
      const path = routes(uniqueRepository('bomb'))[route];
      const contentType = route === 'junit' ? 'application/xml' : 'application/x-protobuf';
      const before = await uploads();
      for (const body of [zeros64, Buffer.concat([zeros64, zeros64, zeros64, zeros64])]) {
        const answer = await upload(path, body, { 'content-type': contentType, 'content-encoding': 'gzip' });
        expect(answer.status).toBe(413);
        expect(answer.body.detail).toMatch(/inflates past 33554432 bytes/);
      }
      expect(await uploads()).toBe(before);
    },
  );

  it('refuses a content coding the reporters never send with 415', async () => {
    const answer = await upload(routes(uniqueRepository('coding')).reporter, Buffer.from([1, 2, 3]), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'br',
    });
    expect([answer.status, answer.body.detail]).toEqual([
      415,
      'Unsupported Content-Encoding: br (send gzip or nothing)',
    ]);
  });
});
