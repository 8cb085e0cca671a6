import { createHmac, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../harness';
import { SandboxTeam } from '../merge-queue-sandbox';
import { uniqueRepository } from '../unique-repository';
import { forgeWrites, type ForgeState, type ForgeWrite } from './boundary/forge-writes';
import { hostileConfiguration } from './boundary/hostile-configurations';
import { readyProblems, settle } from './boundary/settle';
import { uploads, type FuzzUpload } from './boundary/uploads';
import { webhookDeliveries, type FuzzDelivery } from './boundary/webhook-deliveries';
import { fuzzSettings } from './fuzz-settings';
import { responseProblems } from './response-invariants';

const SECRET = 'fuzz-boundary-webhook-secret';
/** No request may take longer while the service is otherwise idle (issue 33 §7). */
const LATENCY_BUDGET_MS = 1_000;

interface Answer {
  status: number;
  text: string;
  body: unknown;
  ms: number;
}

/**
 * Property-based fuzzing of the boundary outside /v1, over real HTTP against the all-in-one app in
 * sandbox mode: signed webhook deliveries of every event type the intake reads, test-result
 * uploads (compression bombs included), the simulators fed hostile regexes, and the sandbox forge's
 * write routes. Whatever arrives: never a 5xx, every refusal says why, a refused request records
 * nothing, no processor stops or retries, the forge sends nothing the webhook door refuses, no
 * request takes over a second while the service is otherwise idle, and afterwards the merge queue
 * still merges a good pull request.
 */
describe('fuzz: the boundary outside /v1 (all-in-one app, sandbox mode)', () => {
  const settings = fuzzSettings();
  let app: TestApp;
  let forgeState: ForgeState;
  let regexTeam: SandboxTeam;
  let regexPull: number;
  /** Answers per generator and status, printed at the end: what the run reached. */
  const tally = new Map<string, Map<number, number>>();

  beforeAll(async () => {
    process.stderr.write(
      `[fuzz boundary] seed ${settings.seed}, ${settings.runs} cases per generator, titles up to ` +
        `${settings.titleLength} characters (replay: FUZZ_SEED=${settings.seed} FUZZ_RUNS=${settings.runs} npm run fuzz)\n`,
    );
    app = await startTestApp({
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET,
      SWITCHYARD_SANDBOX_CI_SECONDS: '0',
    });
    forgeState = await forgeSetUp(new SandboxTeam(app, uniqueRepository('fuzz-forge')));
    regexTeam = new SandboxTeam(app, uniqueRepository('fuzz-regex'));
    regexPull = await regexTeam.openChange('regex');
    // The upload worker threads start on the first large upload: not a request under test.
    await send('POST', `${uploadBase(uniqueRepository('fuzz-warm'), 'reporter')}`, {
      rawBody: undefined,
      bytes: Buffer.alloc(16 * 1024),
      headers: { 'content-type': 'application/x-protobuf' },
    });
    expect(await settle(app)).toEqual([]);
  }, 180_000);
  afterAll(async () => {
    for (const [generator, statuses] of tally)
      process.stderr.write(
        `[fuzz boundary] ${generator}: ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${count} × ${status}`)
          .join(', ')}\n`,
      );
    await app?.close();
  });

  async function forgeSetUp(team: SandboxTeam): Promise<ForgeState> {
    const pull = await team.openChange('fuzzed');
    await team.comment(pull, 'a first comment');
    const { body: pullJson } = await team.forge('GET', `/pulls/${pull}`);
    const { body: comments } = await team.forge('GET', `/issues/${pull}/comments`);
    const check = await team.forge('POST', '/check-runs', {
      name: 'fuzz',
      head_sha: pullJson.head.sha,
      status: 'in_progress',
    });
    return {
      repository: team.repository,
      pull,
      branch: 'fuzzed',
      head: pullJson.head.sha,
      commentId: comments[0].id,
      checkRunId: check.body.id,
    };
  }

  const uploadBase = (repository: string, route: FuzzUpload['route']) => {
    const [owner, name] = repository.split('/');
    return route === 'junit'
      ? `/v1/ci/${owner}/repositories/${name}/junit?pipeline_name=ci&job_name=unit&head_sha=abc&branch=main`
      : route === 'reporter'
        ? `/v1/ci/${owner}/repositories/${name}/traces`
        : `/v1/repos/${owner}/${name}/ci/traces`;
  };

  async function send(
    method: string,
    path: string,
    options: { rawBody?: string; bytes?: Buffer; headers?: Record<string, string>; token?: string | null },
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? app.adminKey : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const started = performance.now();
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers,
      body: options.bytes ?? options.rawBody,
    });
    const text = await response.text();
    const ms = performance.now() - started;
    let body: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json')) body = JSON.parse(text);
    return { status: response.status, text, body, ms };
  }

  /**
   * Sends a request once the service is idle, and checks what must hold of any answer. A request
   * over the budget is sent again once idle: only a second slow answer counts (the machine is
   * shared), and it is reported with both times.
   */
  async function checked(
    generator: string,
    describe: string,
    attempt: () => Promise<Answer>,
    extra: (
      answer: Answer,
      before: string | null,
      after: string | null,
    ) => Promise<string[]> = async () => [],
  ): Promise<void> {
    const problems = await settle(app);
    const before = await app.running.storage.store.headPosition();
    let answer = await attempt();
    const after = await app.running.storage.store.headPosition();
    const statuses = tally.get(generator) ?? new Map<number, number>();
    tally.set(generator, statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1));
    problems.push(...(await extra(answer, before, after)));
    if (answer.status >= 500) problems.push(`answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    problems.push(...(await settle(app)), ...(await readyProblems(app)));
    if (answer.ms > LATENCY_BUDGET_MS) {
      const first = answer.ms;
      answer = await attempt();
      if (answer.ms > LATENCY_BUDGET_MS)
        problems.push(`took ${Math.round(first)} ms, then ${Math.round(answer.ms)} ms again`);
      problems.push(...(await settle(app)));
    }
    if (problems.length > 0) throw new Error(`${describe}\n  ${problems.join('\n  ')}`);
  }

  const timeout = 60_000 + settings.runs * 4_000;

  it(
    'webhook deliveries of every event type the intake reads, each field dropped, nulled, retyped, NUL-laden, oversized',
    async () => {
      await fc.assert(
        fc.asyncProperty(webhookDeliveries(), async (delivery: FuzzDelivery) => {
          // GitHub's signature, computed here: Octokit's sign() refuses an empty body.
          const signature = `sha256=${createHmac('sha256', SECRET).update(delivery.body).digest('hex')}`;
          await checked(
            'webhooks',
            `${delivery.event} delivery: ${delivery.mutations.join('; ') || 'as GitHub sent it'}`,
            () =>
              send('POST', '/webhooks/github', {
                token: null,
                rawBody: delivery.body,
                headers: {
                  'content-type': 'application/json',
                  'x-github-event': delivery.event,
                  'x-github-delivery': randomUUID(),
                  'x-hub-signature-256': signature,
                },
              }),
            async (answer, before, after) => [
              ...(answer.status === 202 || answer.status === 400 ? [] : [`answered ${answer.status}`]),
              ...responseProblems({ ...answer, headers: new Headers() }, { before, after }),
            ],
          );
        }),
        { seed: settings.seed, numRuns: settings.runs * 3 },
      );
    },
    timeout * 3,
  );

  it(
    'test-result uploads: hostile JUnit and OTLP, gzip bombs of 64 and 256 MiB, codings that lie',
    async () => {
      const repository = uniqueRepository('fuzz-uploads');
      await fc.assert(
        fc.asyncProperty(uploads(), async (upload: FuzzUpload) => {
          await checked(
            'uploads',
            upload.description,
            () =>
              send('POST', uploadBase(repository, upload.route), {
                bytes: upload.body,
                headers: upload.headers,
              }),
            async (answer) => {
              // 4xx with a detail (a string, or the 422 list); nothing counted as recorded is checked below.
              const problems = responseProblems(
                { ...answer, headers: new Headers() },
                { before: null, after: null },
              );
              if (answer.status === 200 && upload.description.includes('MiB of zeros'))
                problems.push('a compression bomb was accepted');
              return problems;
            },
          );
        }),
        { seed: settings.seed + 1, numRuns: settings.runs },
      );
    },
    timeout,
  );

  it(
    'the three simulators, fed configurations whose conditions carry hostile regexes',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          hostileConfiguration,
          fc.constantFrom('configuration-simulator', 'simulator', `pulls/${regexPull}/simulator`),
          fc.integer({ min: 1, max: settings.titleLength }),
          async (mergifyYml, route, titleLength) => {
            if (route.startsWith('pulls/')) {
              const renamed = await regexTeam.forge('PATCH', `/pulls/${regexPull}`, {
                title: `${'a'.repeat(titleLength)}!`,
              });
              expect(renamed.status).toBe(200);
            }
            await checked(
              'simulators',
              `${route} with a title of ${titleLength} a's:\n${mergifyYml}`,
              () =>
                send('POST', `/v1/repos/${regexTeam.repository}/${route}`, {
                  rawBody: JSON.stringify({ mergify_yml: mergifyYml }),
                  headers: { 'content-type': 'application/json' },
                }),
              async (answer, before, after) =>
                answer.status === 200 || answer.status === 422
                  ? responseProblems({ ...answer, headers: new Headers() }, { before, after })
                  : [`answered ${answer.status}: ${answer.text.slice(0, 300)}`],
            );
          },
        ),
        { seed: settings.seed + 2, numRuns: settings.runs },
      );
    },
    timeout,
  );

  it(
    "the sandbox forge's write routes",
    async () => {
      await fc.assert(
        fc.asyncProperty(forgeWrites(forgeState), async (write: ForgeWrite) => {
          await checked(
            'forge',
            `${write.method} ${write.path.slice(0, 200)} ${write.body?.slice(0, 300) ?? ''}`,
            () =>
              send(write.method, write.path, {
                ...(write.body === undefined ? {} : { rawBody: write.body }),
                headers: write.body === undefined ? {} : { 'content-type': 'application/json' },
              }),
            async (answer) => {
              if (answer.status < 400 || answer.status >= 500) return [];
              // GitHub's `message` from the forge; the service's `detail` for a path outside it.
              const { message, detail } = answer.body as { message?: unknown; detail?: unknown };
              return [message, detail].some((text) => typeof text === 'string' && text !== '')
                ? []
                : [`answered ${answer.status} without a message: ${answer.text.slice(0, 200)}`];
            },
          );
        }),
        { seed: settings.seed + 3, numRuns: settings.runs * 2 },
      );
    },
    timeout * 2,
  );

  it('afterwards, the merge queue still merges a good pull request', async () => {
    const team = new SandboxTeam(app, uniqueRepository('fuzz-queue'));
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const number = await team.openChange('good');
    await team.comment(number, '@mergify queue');
    await team.until(`#${number} merged`, async () => (await team.pull(number)).merged, 120_000);
    expect(await team.onMain('changes/good.txt')).toBe(true);
    expect([...(await settle(app)), ...(await readyProblems(app))]).toEqual([]);
  }, 180_000);
});
