import fc from 'fast-check';
import { queueWorkload } from '@switchyard/merge-queue/testing';
import { buildDashboard, startTestApp, type TestApp } from '../harness';
import { endpointName, FUZZ_ENDPOINTS } from './endpoints';
import { fuzzSettings } from './fuzz-settings';
import { describeRequest, requestsTo, type FuzzCredentials, type FuzzRequest } from './fuzz-request';
import type { FuzzState } from './path-parameters';
import { responseProblems } from './response-invariants';

/**
 * Property-based fuzzing of every endpoint in the table over real HTTP against the all-in-one app:
 * whatever the body, path parameters, query and credentials, the answer is never a 5xx, every 4xx
 * carries a `detail`, a refused request appends nothing, and an accepted write leaves every read
 * model able to apply it (/readyz stays 200).
 */
describe('fuzz: every endpoint against hostile requests (all-in-one app)', () => {
  const settings = fuzzSettings();
  const NOW = '2026-03-02T10:00:00.000Z';
  let app: TestApp;
  let state: FuzzState;
  let credentials: FuzzCredentials;

  beforeAll(async () => {
    process.stderr.write(
      `[fuzz] seed ${settings.seed}, ${settings.runs} requests per endpoint ` +
        `(replay: FUZZ_SEED=${settings.seed} FUZZ_RUNS=${settings.runs} npm run fuzz)\n`,
    );
    // `/` and /ui are endpoints too: the service must find its page at start.
    buildDashboard();
    app = await startTestApp();
    app.clock.set(NOW);
    state = { account: 'acme', repository: 'fuzz', freezeIds: [] };
    credentials = {
      admin: app.adminKey,
      others: [await app.createKey('ci'), await app.createKey('admin', 'other')],
    };
    const repo = `/v1/repos/${state.account}/${state.repository}`;
    const freezes = [
      { reason: 'in force', start: null, end: null, timezone: 'UTC' },
      { reason: 'later', start: '2026-12-24T18:00:00', end: '2026-12-27T08:00:00', timezone: 'Europe/Paris' },
      {
        reason: 'conditions',
        start: '2027-01-01T00:00:00',
        end: null,
        timezone: 'Asia/Tokyo',
        matching_conditions: ['base=main', { or: ['label=a', { not: 'label=b' }] }],
      },
    ];
    const ids: string[] = [];
    for (const body of freezes) {
      const created = await app.request<{ id: string }>('POST', `${repo}/scheduled_freeze`, { body });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    state = { ...state, freezeIds: ids };
    expect((await app.request('PUT', `${repo}/merge-queue/pause`, { body: { reason: 'fuzz' } })).status).toBe(
      200,
    );
    // Merge-queue history, so log queries, cursors and aggregates run over real rows.
    const store = app.running.storage.store;
    const workload = { repository: `${state.account}/${state.repository}`, seed: 7, events: 200 };
    let head = null;
    for (const batch of queueWorkload({
      ...workload,
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date(NOW),
    })) {
      head = (await store.appendToStream(batch.streamId, batch.events, { expectedRevision: 'any' }))
        .lastPosition;
    }
    const host = app.running.projections!;
    expect(await host.waitFor(host.names, head, 60_000)).toBe(true);
  }, 180_000);
  afterAll(() => app?.close());

  const headPosition = async () => app.running.storage.store.headPosition();

  async function send(request: FuzzRequest) {
    const body = request.method === 'GET' ? undefined : request.body;
    return app.request(request.method, request.path, {
      token: request.token,
      ...(body ? { rawBody: body.text, headers: { 'content-type': body.contentType } } : {}),
    });
  }

  /**
   * Reactors answer earlier writes with writes of their own (a pause reaches the merge-queue
   * engine's stream, say), so the head is read once every processor has caught up with it and
   * nothing new follows: only then does a move of the head belong to the request under test.
   */
  async function quiescentHead() {
    const host = app.running.projections!;
    for (;;) {
      const head = await headPosition();
      if (head !== null) expect(await host.waitFor(host.names, head, 60_000)).toBe(true);
      if ((await headPosition()) === head) return head;
    }
  }

  async function problemsOf(request: FuzzRequest, sent = 1): Promise<string[]> {
    const before = await quiescentHead();
    const response = await send(request);
    const after = await headPosition();
    // A periodic processor (the engine's timer: a freeze that starts, a batch's wait that ends) may
    // write on its own clock, which quiescence cannot wait for; one run saw 15 events land under a
    // 431. A refused request that appends does so each time it is sent, so a head that moved under
    // a refusal is put to the test once more before it counts.
    if (response.status >= 300 && before !== after && sent === 1) return problemsOf(request, 2);
    const problems = responseProblems(response, { before, after });
    if (response.status < 300 && before !== after) {
      // An accepted write: every projection must have applied it.
      const ready = await app.request('GET', '/readyz', { token: null });
      if (ready.status !== 200)
        problems.push(`was accepted but left /readyz at ${ready.status}: ${ready.text}`);
    }
    return problems;
  }

  FUZZ_ENDPOINTS.forEach((endpoint, index) => {
    it(
      endpointName(endpoint),
      async () => {
        await fc.assert(
          fc.asyncProperty(requestsTo(endpoint, state, credentials), async (request) => {
            const problems = await problemsOf(request);
            if (problems.length > 0)
              throw new Error(`${describeRequest(request)}\n  ${problems.join('\n  ')}`);
          }),
          { seed: settings.seed + index, numRuns: settings.runs },
        );
      },
      30_000 + settings.runs * 6_000,
    );
  });
});
