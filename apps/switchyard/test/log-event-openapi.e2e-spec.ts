import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

interface Schema {
  oneOf?: Schema[];
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  type?: string;
}

/** Mergify's schema requires `<verb>_by_staff` beside every actor; clients validate the log against it. */
describe('log events in the OpenAPI document', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const eventSchemas = async (): Promise<Map<string, Schema>> => {
    const document = await app.request('GET', '/v1/openapi.json', { token: null });
    const page = document.body.paths['/v1/repos/{owner}/{repository}/logs'].get.responses['200'].content[
      'application/json'
    ].schema as Schema;
    const byType = new Map<string, Schema>();
    for (const event of page.properties!.events!.items!.oneOf!) {
      for (const type of event.properties!.type!.enum as string[])
        byType.set(type, event.properties!.metadata!);
    }
    return byType;
  };

  it.each([
    ['queue.pause.create', 'created'],
    ['queue.pause.update', 'updated'],
    ['queue.pause.delete', 'deleted'],
    ['scheduled_freeze.create', 'created'],
    ['scheduled_freeze.update', 'updated'],
    ['scheduled_freeze.delete', 'deleted'],
  ])('%s metadata requires %s_by and a boolean %s_by_staff', async (type, verb) => {
    const metadata = (await eventSchemas()).get(type)!;
    expect(metadata.required).toEqual(expect.arrayContaining([`${verb}_by`, `${verb}_by_staff`]));
    expect(metadata.properties![`${verb}_by_staff`]).toMatchObject({ type: 'boolean', enum: [false] });
  });

  it('serves the flags, false, on the events themselves', async () => {
    const repo = uniqueRepository('staff-flags');
    app.clock.set('2026-03-02T10:00:00.000Z');
    await app.request('PUT', `/v1/repos/${repo}/merge-queue/pause`, { body: { reason: 'flags' } });
    await app.request('DELETE', `/v1/repos/${repo}/merge-queue/pause`);
    const window = 'received_from=2026-03-01T00:00:00Z&received_to=2026-03-03T00:00:00Z';
    const log = await app.request('GET', `/v1/repos/${repo}/logs?${window}`);
    expect(
      log.body.events.map((event: { type: string; metadata: object }) => [event.type, event.metadata]),
    ).toEqual([
      ['queue.pause.delete', { deleted_by: expect.any(Object), deleted_by_staff: false }],
      ['queue.pause.create', { reason: 'flags', created_by: expect.any(Object), created_by_staff: false }],
    ]);
  });
});
