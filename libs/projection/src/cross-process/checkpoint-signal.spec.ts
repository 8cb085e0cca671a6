import { batchedPublish, decodeCheckpointUpdates, encodeCheckpointUpdates } from './checkpoint-signal';

const position = (n: number) => `00000000000000000012:${String(n).padStart(20, '0')}`;

describe('checkpoint update payloads', () => {
  it('round-trip through their wire form, several in one payload', () => {
    const updates = [
      { name: 'activity_log', position: position(34) },
      { name: 'auth_credentials', position: 'start' },
    ];
    const payloads = encodeCheckpointUpdates(updates);
    expect(payloads).toHaveLength(1);
    expect(decodeCheckpointUpdates(payloads[0]!)).toEqual(updates);
  });

  it('split into payloads PostgreSQL accepts (under 8,000 bytes) when there are many', () => {
    const updates = Array.from({ length: 300 }, (_, i) => ({
      name: `processor_${i}`,
      position: position(i),
    }));
    const payloads = encodeCheckpointUpdates(updates);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(payloads.flatMap(decodeCheckpointUpdates)).toEqual(updates);
  });

  it('still read a single update, as the previous release sends it', () => {
    const update = { name: 'activity_log', position: position(34) };
    expect(decodeCheckpointUpdates(JSON.stringify(update))).toEqual([update]);
  });

  it.each(['', 'not json', 'null', '42', '{"name":"a"}', '{"name":1,"position":"x"}', '[1,{"name":"a"}]'])(
    'ignore what is not an update: %p',
    (payload) => {
      expect(decodeCheckpointUpdates(payload)).toEqual([]);
    },
  );
});

describe('batchedPublish', () => {
  it('sends the updates of one turn as one payload, with the newest position of each processor', async () => {
    const sent: string[] = [];
    const publish = batchedPublish(async (payload) => sent.push(payload));
    await Promise.all([
      publish({ name: 'a', position: position(1) }),
      publish({ name: 'b', position: position(1) }),
      publish({ name: 'a', position: position(2) }),
    ]);
    expect(sent.map(decodeCheckpointUpdates)).toEqual([
      [
        { name: 'a', position: position(2) },
        { name: 'b', position: position(1) },
      ],
    ]);
  });
});
