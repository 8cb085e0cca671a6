import { UnprocessableEntityException } from '@nestjs/common';
import { decodeLogCursor, encodeLogCursor, type LogCursor } from './log-cursor';

const forge = (json: unknown) => Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
const issued = {
  d: 'n',
  t: Date.parse('2026-03-01T12:00:00Z'),
  i: 42,
  f: Date.parse('2026-03-01T00:00:00Z'),
  u: Date.parse('2026-03-02T00:00:00Z'),
};

const refusal = (text: string) => {
  try {
    decodeLogCursor(text);
  } catch (error) {
    return error;
  }
  return null;
};

describe('log cursors', () => {
  it('round-trips what GET logs issues', () => {
    const cursor: LogCursor = {
      start: { direction: 'prev', position: { receivedAt: new Date('0001-01-01T00:00:00Z'), id: 7 } },
      window: { from: new Date('0001-01-01T00:00:00Z'), to: new Date('9999-12-31T23:59:59.999Z') },
    };
    expect(decodeLogCursor(encodeLogCursor(cursor))).toEqual(cursor);
  });

  it.each([
    ['a time before year 1', { ...issued, t: Date.parse('0000-12-31T23:59:59.999Z') }],
    ['a time after year 9999', { ...issued, t: Date.parse('+010000-01-01T00:00:00Z') }],
    ['a time no Date can hold', { ...issued, t: 8.64e15 + 1 }],
    ['a window starting in year 0', { ...issued, f: -62198755200000 }],
    ['a window ending past 9999', { ...issued, u: Number.MAX_SAFE_INTEGER }],
    ['a negative id', { ...issued, i: -1 }],
    ['a fractional time', { ...issued, t: 1.5 }],
    ['an unknown direction', { ...issued, d: 'x' }],
  ])('answers 422 "Invalid cursor" to %s', (_, json) => {
    const error = refusal(forge(json));
    expect(error).toBeInstanceOf(UnprocessableEntityException);
    expect((error as UnprocessableEntityException).message).toBe('Invalid cursor');
  });
});
