import { decodeCheckpointUpdate, encodeCheckpointUpdate } from './checkpoint-signal';

describe('checkpoint update payloads', () => {
  it('round-trip through their wire form', () => {
    const update = { name: 'activity_log', position: '00000000000000000012:00000000000000000034' };
    expect(decodeCheckpointUpdate(encodeCheckpointUpdate(update))).toEqual(update);
  });

  it.each(['', 'not json', 'null', '42', '{"name":"a"}', '{"name":1,"position":"x"}'])(
    'ignores what is not an update: %p',
    (payload) => {
      expect(decodeCheckpointUpdate(payload)).toBeNull();
    },
  );
});
