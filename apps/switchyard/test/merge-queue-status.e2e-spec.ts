import { scaledWait } from '@switchyard/testing';
import { mergeQueueStreamId, type MergeQueueEvent } from '@switchyard/merge-queue';
import { impactOfEvents } from '@switchyard/merge-queue/status';
import {
  mergeQueuePullRequestProblems,
  mergeQueueStatusProblems,
  pullRequestDetailProblems,
  pullRequestQueuedProblems,
} from '@switchyard/merge-queue/status/testing/spec-shapes';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/** How long before it commits an append may be stamped (its transaction waited for a stream lock). */
const RECORDED_AT_SKEW_MS = 2_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are shape-checked field by field
type Json = any;

/** What `?at=` must reproduce: the queue's own facts, not the code host's current titles and labels. */
const queueFacts = (status: Json) => ({
  batches: status.batches.map((b: Json) => ({
    id: b.id,
    code: b.status.code,
    parents: b.parent_ids,
    started_at: b.started_at,
    ci_finished_at: b.ci_finished_at,
    pull_requests: b.pull_requests.map((p: Json) => p.number),
    draft: b.queue_pull_request_number,
  })),
  waiting: status.waiting_pull_requests.map((p: Json) => [p.number, p.queued_at, p.is_frozen]),
  mode: status.mode,
  pause: status.pause,
});

/**
 * The status API over the engine on the sandbox forge: every answer met while a queue drains is
 * checked against the spec's shapes, `?at=` replays those answers, dequeue-impact predicts the
 * dequeue, and the CLI's rendering rules (client-contract §1.3/§1.4) find what they read.
 */
describe('merge-queue status API (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(300_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '1' });
    // The engine decides on the system clock; answers about "now" must not see its events as future.
    app.clock.set(new Date(Date.now() + 24 * 3600_000));
  }, 120_000);
  afterAll(() => app?.close());

  it('serves spec-shaped answers while a queue drains, and ?at= gives back what was live', async () => {
    const team = new SandboxTeam(app, uniqueRepository('status'));
    const base = `/v1/repos/${team.repository}`;
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const numbers: number[] = [];
    for (const name of ['one', 'two', 'three']) numbers.push(await team.openChange(name));
    numbers.push(await team.openChange('four', { failing: true }));

    const before = await app.request(`GET`, `${base}/merge-queue/status?at=${new Date().toISOString()}`);
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ detail: 'The repository had no merge queue at that time' });

    for (const number of numbers) await team.comment(number, '@mergify queue');
    const samples: Array<{ from: string; to: string; status: Json }> = [];
    const codesSeen = new Set<string>();
    const settled = async () => {
      // Every way out of the queue, a merge included, records pull_request_left (a merge also
      // records pull_request_merged, so counting both would call the queue drained halfway).
      const events = await team.queueEvents();
      const done = new Set(
        events.filter((e) => e.type === 'merge_queue.pull_request_left').map((e) => e.data['pullRequest']),
      ).size;
      const from = new Date().toISOString();
      // A live answer is as fresh as the status read model, which may trail the store under load:
      // it is caught up to what was recorded by `from` before reading, so the answer lies between.
      const head = await app.running.storage.store.headPosition();
      expect(await app.running.projections!.waitFor(['merge_queue.status'], head, scaledWait(20_000))).toBe(
        true,
      );
      const live = await app.request('GET', `${base}/merge-queue/status?branch=main`);
      const to = new Date().toISOString();
      expect(live.status).toBe(200);
      expect(mergeQueueStatusProblems(live.body)).toEqual([]);
      for (const batch of live.body.batches) codesSeen.add(batch.status.code);
      if (live.body.batches.length + live.body.waiting_pull_requests.length > 0)
        samples.push({ from, to, status: live.body });
      for (const batch of live.body.batches)
        for (const pr of batch.pull_requests) {
          const detail = await app.request('GET', `${base}/merge-queue/pull/${pr.number}`);
          if (detail.status === 404) continue; // it left between the two reads
          expect(pullRequestDetailProblems(detail.body)).toEqual([]);
        }
      const legacy = await app.request('GET', `${base}/queues`);
      expect(legacy.status).toBe(200);
      for (const queue of legacy.body.queues)
        for (const [i, pr] of queue.pull_requests.entries())
          expect(pullRequestQueuedProblems(pr, `queues[${i}]`)).toEqual([]);
      return done >= numbers.length;
    };
    await team.until('every pull request merged or dequeued', settled);

    expect(samples.length).toBeGreaterThan(0);
    expect(codesSeen.size).toBeGreaterThan(0);
    for (const sample of samples) {
      // PostgreSQL stamps an event with its transaction's start (recorded_at), so an append that
      // began before `from` and committed after the live read counts as already done at `from`:
      // the answer a little before `from` is a candidate too.
      const beforeFrom = new Date(Date.parse(sample.from) - RECORDED_AT_SKEW_MS).toISOString();
      const statusAt = (at: string) =>
        app.request('GET', `${base}/merge-queue/status?branch=main&at=${encodeURIComponent(at)}`);
      const [atFrom, atTo, atBeforeFrom] = await Promise.all(
        [sample.from, sample.to, beforeFrom].map(statusAt),
      );
      expect(atTo!.status).toBe(200);
      // The first pull request may have been queued between `from` and the read: then there was no
      // queue yet at `from` (404), and the answer at `to` must reproduce the live one.
      if (atFrom!.status === 404) {
        expect(queueFacts(atTo!.body)).toEqual(queueFacts(sample.status));
        continue;
      }
      expect(atFrom!.status).toBe(200);
      expect(mergeQueueStatusProblems(atFrom!.body)).toEqual([]);
      // The live answer was read between the two instants: the queue as it stood at one of them, or
      // at one of the events recorded between them (a loaded machine may record several).
      const between = (
        await app.running.storage.store.readStream(mergeQueueStreamId(team.repository, 'main'))
      ).events
        .map((event) => event.recordedAt.getTime())
        .filter((at) => at > Date.parse(beforeFrom) && at < Date.parse(sample.to))
        // Stored to the microsecond and read back to the millisecond: just after it, too.
        .flatMap((at) => [new Date(at).toISOString(), new Date(at + 1).toISOString()]);
      const atEvents = await Promise.all([...new Set(between)].map(statusAt));
      const candidates = [
        atFrom!,
        atTo!,
        ...[atBeforeFrom!, ...atEvents].filter((answer) => answer.status === 200),
      ];
      expect(candidates.map((answer) => queueFacts(answer.body))).toContainEqual(queueFacts(sample.status));
    }

    // A batch whose last pull request merged stays listed as `merged` until the next batch's checks
    // start (docs/queue-behaviour.md): the queue as it was at each merge shows it.
    const events = await team.queueEvents();
    const merges = events.flatMap((event, index) => {
      if (event.type !== 'merge_queue.pull_request_merged') return [];
      const at = event.data['occurredAt'] as string;
      const nextStart = events
        .slice(index + 1)
        .find((e) => e.type === 'merge_queue.checks_started' && e.data['trainCarId'] !== null);
      // Within the same millisecond as the next start, no instant sits between the two.
      return nextStart?.data['occurredAt'] === at
        ? []
        : [{ number: event.data['pullRequest'] as number, at }];
    });
    expect(merges.length).toBeGreaterThan(0);
    for (const { number, at } of merges) {
      const then = await app.request(
        'GET',
        `${base}/merge-queue/status?branch=main&at=${encodeURIComponent(at)}`,
      );
      expect(mergeQueueStatusProblems(then.body)).toEqual([]);
      expect(
        then.body.batches.map((b: Json) => [b.status.code, b.pull_requests.map((p: Json) => p.number)]),
      ).toContainEqual(['merged', [number]]);
    }

    const branches = await app.request('GET', `${base}/queues/branches`);
    expect(branches.body).toEqual({ base_refs: ['main'] });
    // The drained queue is still main's merge queue, idle: both endpoints name it.
    const withQueue = await app.request('GET', `${base}/merge-queue/branches`);
    expect(withQueue.body).toEqual({ branches: ['main'] });
    const future = await app.request('GET', `${base}/merge-queue/status?at=2999-01-01T00:00:00Z`);
    expect(future.status).toBe(422);
    expect(future.body).toEqual({ detail: 'at is in the future' });
  });
});

describe('merge-queue dequeue through the status API (all-in-one app, CI that never ends)', () => {
  jest.setTimeout(300_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '3600' });
  }, 120_000);
  afterAll(() => app?.close());

  it('dequeue-impact predicts what POST dequeue does; the pull request then leaves; 404 outside any queue', async () => {
    const team = new SandboxTeam(app, uniqueRepository('dequeue'));
    const base = `/v1/repos/${team.repository}`;
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      'queue_rules:\n  - name: default\n    batch_size: 1\n    merge_conditions:\n      - check-success=ci\n',
    );
    const numbers = [await team.openChange('alpha'), await team.openChange('beta')];
    for (const number of numbers) await team.comment(number, '@mergify queue');
    // CI never ends in this app: both batches keep running, the second on top of the first.
    await team.until('both batches running', async () => {
      const status = await app.request('GET', `${base}/merge-queue/status`);
      return status.body.batches.filter((b: Json) => b.status.code === 'running').length === 2;
    });

    const status = await app.request('GET', `${base}/merge-queue/status`);
    expect(mergeQueueStatusProblems(status.body)).toEqual([]);
    // client-contract §1.3: the CLI's status table reads these of every batch and its pull requests.
    for (const batch of status.body.batches) {
      for (const field of [
        'id',
        'status',
        'started_at',
        'estimated_merge_at',
        'pull_requests',
        'queue_rule_name',
      ])
        expect(batch).toHaveProperty(field);
      for (const pr of batch.pull_requests) {
        expect(mergeQueuePullRequestProblems(pr)).toEqual([]);
        for (const field of ['number', 'title', 'author', 'queued_at', 'priority_alias'])
          expect(pr).toHaveProperty(field);
        // From the pull request's snapshot: the forge's account id and label objects.
        expect(pr.author.id).toBeGreaterThan(0);
        expect(pr.github_labels).toEqual(expect.any(Array));
      }
    }

    // client-contract §1.4: the merge conditions judged on the batch's draft, whose CI has not ended.
    const checking = await app.request('GET', `${base}/merge-queue/pull/${numbers[0]}`);
    expect(pullRequestDetailProblems(checking.body)).toEqual([]);
    expect(checking.body.mergeability_check.conditions_evaluation).toMatchObject({
      match: false,
      subconditions: [{ label: 'check-success=ci', match: false, subconditions: [] }],
    });

    const target = numbers[0]!;
    const impact = await app.request('GET', `${base}/merge-queue/pull/${target}/dequeue-impact`);
    expect(impact.status).toBe(200);
    expect(impact.body).toEqual({
      interrupted_batches: 1,
      rechecked_pull_requests: 1,
      cascaded_pull_requests: 0,
    });
    const stream = mergeQueueStreamId(team.repository, 'main');
    const store = app.running.storage.store;
    const { revision } = await store.readStream(stream);
    const stateBefore = await team.queue();

    const dequeued = await app.request('POST', `${base}/merge-queue/pull/${target}/dequeue`);
    expect(dequeued.status).toBe(204);
    // The request is recorded at once; the removal follows. Never listed as not requested meanwhile.
    const meanwhile = await app.request('GET', `${base}/merge-queue/status`);
    const listed = meanwhile.body.batches
      .flatMap((b: Json) => b.pull_requests)
      .concat(meanwhile.body.waiting_pull_requests)
      .filter((pr: Json) => pr.number === target);
    for (const pr of listed) expect(pr.dequeue_requested).toBe(true);
    await team.until('the requested removal is done', async () => {
      const detail = await app.request('GET', `${base}/merge-queue/pull/${target}`);
      return detail.status === 404;
    });
    const after = await store.readStream(stream, { fromRevision: revision + 1n });
    const sequence = after.events.flatMap((e) =>
      e.type === 'merge_queue.dequeue_requested' ||
      (e.type === 'merge_queue.pull_request_left' && (e.data as Json).pullRequest === target)
        ? [[e.type, (e.data as Json).dequeueCode ?? null]]
        : [],
    );
    expect(sequence).toEqual([
      ['merge_queue.dequeue_requested', null],
      ['merge_queue.pull_request_left', 'PR_MANUALLY_DEQUEUED'],
    ]);
    const done = impactOfEvents(
      stateBefore,
      target,
      after.events.map((e) => ({ type: e.type, data: e.data }) as MergeQueueEvent),
    );
    expect(impact.body).toEqual(done);

    const gone = await app.request('GET', `${base}/merge-queue/pull/${target}`);
    expect(gone.status).toBe(404);
    const notQueued = { detail: `Pull request #${target} is in no merge queue` };
    expect(gone.body).toEqual(notQueued);
    const dequeueAgain = await app.request('POST', `${base}/merge-queue/pull/${target}/dequeue`);
    expect(dequeueAgain.status).toBe(404);
    expect(dequeueAgain.body).toEqual(notQueued);
    const impactAfter = await app.request('GET', `${base}/merge-queue/pull/${target}/dequeue-impact`);
    expect(impactAfter.status).toBe(404);
    expect(impactAfter.body).toEqual(notQueued);
    const still = await app.request('GET', `${base}/merge-queue/pull/${numbers[1]}`);
    expect(still.status).toBe(200);
    expect(pullRequestDetailProblems(still.body)).toEqual([]);
    expect(still.body.position).toBe(0);

    await app.request('PUT', `${base}/merge-queue/pause`, { body: { reason: 'hold for the test' } });
    await team.until('the pause reaches the queue', async () => {
      const paused = await app.request('GET', `${base}/merge-queue/status`);
      return paused.body.pause !== null;
    });
    const paused = await app.request('GET', `${base}/merge-queue/status`);
    expect(paused.body.pause).toMatchObject({ paused: true, reason: 'hold for the test' });
    expect(mergeQueueStatusProblems(paused.body)).toEqual([]);
  });
});

describe('merge-queue status of a batch held by a schedule (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(300_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '1' });
    // The engine judges on the system clock: the status must judge the same day.
    app.clock.set(new Date());
  }, 120_000);
  afterAll(() => app?.close());

  it('shows waiting_schedule once CI passed and only the schedule condition fails', async () => {
    const team = new SandboxTeam(app, uniqueRepository('schedule'));
    const base = `/v1/repos/${team.repository}`;
    // A weekday three days away: closed today and tomorrow, whenever the test runs.
    const closedDay = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][(new Date().getUTCDay() + 3) % 7];
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      `queue_rules:\n  - name: default\n    merge_conditions:\n      - check-success=ci\n      - schedule=${closedDay}\n`,
    );
    const number = await team.openChange('later');
    await team.comment(number, '@mergify queue');
    await team.until('the batch waits for its schedule', async () => {
      const status = await app.request('GET', `${base}/merge-queue/status`);
      return status.body.batches.some((b: Json) => b.status.code === 'waiting_schedule');
    });
    const status = await app.request('GET', `${base}/merge-queue/status`);
    expect(mergeQueueStatusProblems(status.body)).toEqual([]);
    const detail = await app.request('GET', `${base}/merge-queue/pull/${number}`);
    expect(pullRequestDetailProblems(detail.body)).toEqual([]);
    expect(detail.body.mergeability_check.conditions_evaluation).toMatchObject({
      match: false,
      subconditions: [
        { label: 'check-success=ci', match: true },
        { label: `schedule=${closedDay}`, match: false },
      ],
    });

    // An answer about a past moment judges no merge conditions: the snapshots keep no history.
    app.clock.set(new Date());
    const at = encodeURIComponent(app.clock.now().toISOString());
    const past = await app.request('GET', `${base}/merge-queue/status?at=${at}`);
    expect(mergeQueueStatusProblems(past.body)).toEqual([]);
    expect(past.body.batches.map((b: Json) => b.status.code)).toEqual(['running']);
    const pastDetail = await app.request('GET', `${base}/merge-queue/pull/${number}?at=${at}`);
    expect(pullRequestDetailProblems(pastDetail.body)).toEqual([]);
    expect(pastDetail.body.mergeability_check.conditions_evaluation).toBeNull();
  });
});
