import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { factsOfDelivery } from '@switchyard/github/webhooks';
import { PullRequestSnapshots } from '../application/pull-request-snapshots';
import { pullRequestSnapshotsProjection, SNAPSHOT_TABLE } from './pull-request-snapshots.projection';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub's example payloads, edited field by field
type Payload = Record<string, any>;

const example = (event: string, action?: string): Payload =>
  structuredClone(
    (examples as { name: string; examples: Payload[] }[])
      .find((group) => group.name === event)!
      .examples.find((payload) => action === undefined || payload.action === action)!,
  );

describeEachDatabase('pull-request snapshots projection', (db) => {
  let sql: SqlExecutor;
  let store: InMemoryEventStore;

  beforeAll(async () => {
    sql = await db.open();
    await sql.transaction((tx) => pullRequestSnapshotsProjection.setup(tx));
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    await sql.transaction((tx) => pullRequestSnapshotsProjection.reset(tx));
    store = new InMemoryEventStore();
  });

  async function deliver(event: string, payload: Payload) {
    const facts = factsOfDelivery(event, payload)!;
    await store.appendToStream(facts.streamId, facts.events, { expectedRevision: 'any' });
  }
  const project = async () => {
    const { events } = await store.readAll({ after: 'start', limit: 1000 });
    await sql.transaction((tx) => pullRequestSnapshotsProjection.apply(tx, events));
  };
  const find = () => new PullRequestSnapshots(sql).find('codertocat/hello-world', 2);

  it('builds the snapshot from pull_request, review, check run and status facts, and a new head drops old checks', async () => {
    const opened = example('pull_request', 'opened');
    const head = opened.pull_request.head.sha as string;
    await deliver('pull_request', opened);
    const labeled = example('pull_request', 'labeled');
    labeled.pull_request.head.sha = head;
    await deliver('pull_request', labeled);
    const review = example('pull_request_review', 'submitted');
    review.pull_request.number = 2;
    await deliver('pull_request_review', review);
    const run = example('check_run', 'completed');
    run.check_run.head_sha = head;
    await deliver('check_run', run);
    const status = example('status');
    status.sha = head;
    await deliver('status', status);
    await project();

    const snapshot = await find();
    expect(snapshot).toMatchObject({
      number: 2,
      labels: labeled.pull_request.labels.map((label: { name: string }) => label.name),
      head: { sha: head },
      reviews: [expect.objectContaining({ id: review.review.id, state: review.review.state.toUpperCase() })],
    });
    expect(snapshot!.checks.map((check) => [check.source, check.name])).toEqual([
      ['check-run', run.check_run.name],
      ['status', status.context],
    ]);

    const pushed = example('pull_request', 'synchronize');
    pushed.pull_request.head.sha = 'f'.repeat(40);
    // GitHub's examples are from different days: the push is made the latest (an older one is a late delivery).
    pushed.pull_request.updated_at = '2030-01-01T00:00:00Z';
    await deliver('pull_request', pushed);
    await project();
    const after = await find();
    expect(after!.head.sha).toBe('f'.repeat(40));
    expect(after!.checks).toEqual([]);
    expect(after!.reviews).toHaveLength(1);
  });

  it('changes nothing when the same events are applied again', async () => {
    await deliver('pull_request', example('pull_request', 'opened'));
    const closed = example('pull_request', 'closed');
    await deliver('pull_request', closed);
    await project();
    const once = (await sql.query(`SELECT * FROM ${SNAPSHOT_TABLE}`)).rows;
    await project();
    expect((await sql.query(`SELECT * FROM ${SNAPSHOT_TABLE}`)).rows).toEqual(once);
    expect(await find()).toMatchObject({ state: 'closed' });
  });
});
