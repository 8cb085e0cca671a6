import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/**
 * Mergify's own schemas for the queue's log events (its public OpenAPI, copied to
 * fixtures/mergify-openapi-queue-events.json with what they reference: CI clones this repository
 * alone), keyed by the `type` each one fixes.
 */
const MERGIFY = JSON.parse(
  readFileSync(join(__dirname, 'fixtures/mergify-openapi-queue-events.json'), 'utf8'),
) as { components: { schemas: Record<string, { properties?: { type?: { const?: string } } }> } };

/**
 * Log types the queue writes that Mergify's OpenAPI has no schema for, each with its source: the
 * spec lists checks_postponed (Mergify's schema has checks_not_started instead) and
 * batch_composition is Switchyard's own (docs, log-mapping.ts).
 */
const NOT_IN_MERGIFY = new Set(['action.queue.checks_postponed', 'action.queue.batch_composition']);

function mergifyValidators() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'mergify', components: MERGIFY.components });
  const byType = new Map<string, ReturnType<typeof ajv.compile>>();
  for (const [name, schema] of Object.entries(MERGIFY.components.schemas)) {
    const type = schema.properties?.type?.const;
    if (type) byType.set(type, ajv.compile({ $ref: `mergify#/components/schemas/${name}` }));
  }
  return byType;
}

const CONFIGURATION = [
  'queue_rules:',
  '  - name: default',
  '    batch_size: 3',
  '    batch_max_wait_time: 30 s',
  'merge_queue:',
  '  max_parallel_checks: 1',
  '',
].join('\n');

interface LogEvent {
  id: number;
  type: string;
  pull_request: number | null;
  metadata: Record<string, unknown>;
}

/**
 * A real queue through the sandbox forge and its CI: a batch of three whose middle one fails,
 * bisected, two merges and a culprit out; then a pull request queued and dequeued by command.
 * Every record the queue wrote to the activity log is validated against Mergify's schema for its
 * type, through ajv over the `type` discriminator, and the batch fields say what happened.
 */
describe("the queue's log events against Mergify's OpenAPI schemas (all-in-one app, sandbox forge)", () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());

  it('writes every queue event type in a shape Mergify accepts, with its batch fields filled', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-log-schemas'));
    const v1 = `/v1/repos/${team.repository}`;
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', CONFIGURATION);
    const events = () => team.queueEvents();
    const count = async (type: string) => (await events()).filter((e) => e.type === type).length;

    const good1 = await team.openChange('good-1');
    const culprit = await team.openChange('culprit', { failing: true });
    const good2 = await team.openChange('good-2');
    for (const number of [good1, culprit, good2]) await team.comment(number, '@mergify queue');
    await team.until(
      'the three pull requests to leave',
      async () => (await count('merge_queue.pull_request_left')) === 3,
    );

    // Queued while the queue is paused (nothing starts), then dequeued by command: a leave from waiting.
    expect((await app.request('PUT', `${v1}/merge-queue/pause`, { body: { reason: 'hold' } })).status).toBe(
      200,
    );
    await team.until('the queue to see the pause', async () => (await team.queue()).paused);
    const dequeued = await team.openChange('dequeued');
    await team.comment(dequeued, '@mergify queue');
    await team.until(
      'the pull request to enter',
      async () => (await count('merge_queue.pull_request_entered')) === 4,
    );
    await team.comment(dequeued, '@mergify dequeue');
    await team.until(
      'the pull request to leave',
      async () => (await count('merge_queue.pull_request_left')) === 4,
    );

    // The log is a read model: wait for it to hold the last leave.
    const window = `received_from=${new Date(Date.now() - 3_600_000).toISOString()}&received_to=${new Date(Date.now() + 3_600_000).toISOString()}`;
    const read = async (): Promise<LogEvent[]> => {
      const out: LogEvent[] = [];
      let cursor: string | null = null;
      for (;;) {
        const page = await app.request(
          'GET',
          `${v1}/logs?${window}&per_page=100${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.status).toBe(200);
        out.push(...(page.body.events as LogEvent[]));
        const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '');
        if (!next) return out;
        cursor = new URL(next[1]!).searchParams.get('cursor');
      }
    };
    await team.until(
      'the log to show the four leaves',
      async () => (await read()).filter((e) => e.type === 'action.queue.leave').length === 4,
    );
    // Oldest first (the log lists newest first).
    const log = (await read()).sort((a, b) => a.id - b.id);

    // Every record of a type Mergify has a schema for passes it; the others are the listed exceptions.
    const validators = mergifyValidators();
    const queueTypes = new Set(
      log
        .map((e) => e.type)
        .filter((t) => t.startsWith('action.queue') || t.includes('dequeue') || t === 'command.queue'),
    );
    for (const event of log.filter((e) => queueTypes.has(e.type))) {
      const validate = validators.get(event.type);
      if (!validate) {
        expect(NOT_IN_MERGIFY).toContain(event.type);
        continue;
      }
      validate(event);
      expect([event.type, event.pull_request, validate.errors ?? []]).toEqual([
        event.type,
        event.pull_request,
        [],
      ]);
    }
    expect([...queueTypes].sort()).toEqual(
      expect.arrayContaining([
        'action.dequeue',
        'action.queue.batch_bisection_end',
        'action.queue.batch_bisection_start',
        'action.queue.change',
        'action.queue.checks_end',
        'action.queue.checks_start',
        'action.queue.enter',
        'action.queue.leave',
        'action.queue.merged',
        'command.dequeue',
        'command.queue',
      ]),
    );

    // The service's own document describes the same records (OpenAPI 3.0: ajv reads `nullable`).
    const document = await app.request('GET', '/v1/openapi.json', { token: null });
    const served = new Ajv({ strict: false, allErrors: true });
    addFormats(served);
    const validateServed = served.compile(
      document.body.paths['/v1/repos/{owner}/{repository}/logs'].get.responses['200'].content[
        'application/json'
      ].schema.properties.events.items,
    );
    for (const event of log) {
      validateServed(event);
      expect([event.type, validateServed.errors ?? []]).toEqual([event.type, []]);
    }

    // The batch fields tell the story.
    const of = (type: string, pullRequest: number) =>
      log.filter((e) => e.type === type && e.pull_request === pullRequest).map((e) => e.metadata);
    const [waitingLeave] = of('action.queue.leave', dequeued);
    expect(waitingLeave).toMatchObject({
      dequeue_code: 'PR_MANUALLY_DEQUEUED',
      batch_id: null,
      scopes: null,
    });

    const [bisectionEnd] = log
      .filter((e) => e.type === 'action.queue.batch_bisection_end')
      .map((e) => e.metadata);
    const [bisectionStart] = log
      .filter((e) => e.type === 'action.queue.batch_bisection_start')
      .map((e) => e.metadata);
    const firstBatch = bisectionStart!.batch_id as string;
    // The batch that failed holds good-1 and the culprit (and good-2, when its command came in time).
    const split = bisectionStart!.original_batch_pr_numbers as number[];
    expect(split.slice(0, 2)).toEqual([good1, culprit]);
    const splitName = `default ${split.map((n) => `#${n}`).join(' ')}`;
    expect(bisectionStart).toMatchObject({ batch_name: splitName });
    expect(bisectionEnd).toMatchObject({
      batch_id: firstBatch,
      confirmed_culprit_pr_numbers: [culprit],
      dropped_unverified_pr_numbers: [],
    });

    // good-1 was checked in the first batch, then alone in a split: a restart names the batch before.
    const good1Starts = of('action.queue.checks_start', good1);
    expect(good1Starts[good1Starts.length - 1]).toMatchObject({
      batch_name: `default #${good1}`,
      scopes: [],
      all_scopes: false,
      previous_batch_id: firstBatch,
      previous_batch_name: splitName,
    });
    expect(good1Starts[good1Starts.length - 1]!.parent_batch_ids).toEqual([]);
    const firstStart = of('action.queue.checks_start', culprit)[0]!;
    expect(firstStart).toMatchObject({ batch_id: firstBatch, previous_batch_id: null, parent_batch_ids: [] });
    expect(
      (firstStart.speculative_check_pull_request as Record<string, unknown>).pull_request_numbers,
    ).toEqual(split);

    const [culpritLeave] = of('action.queue.leave', culprit);
    expect(culpritLeave).toMatchObject({ dequeue_code: 'CHECKS_FAILED', all_scopes: false, scopes: [] });
    expect(culpritLeave!.batch_id).toEqual(expect.any(String));

    // A merge names the commit it landed; the last one is main's tip.
    const mergedShas = [good1, good2].map((n) => of('action.queue.merged', n)[0]!.merge_commit_sha);
    const main = await team.forge('GET', '/git/ref/heads/main');
    expect(mergedShas[1]).toBe(main.body.object.sha);
    expect(mergedShas[0]).toEqual(expect.any(String));
  });
});
