import { UnprocessableEntityException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { decodeCursor, encodeCursor } from './cursor';
import { buildLinkHeader } from './link-header';

const isPosition = (value: unknown): value is { before: number } =>
  typeof value === 'object' && value !== null && typeof (value as { before?: unknown }).before === 'number';

describe('cursors', () => {
  it('round-trips and uses only URL-safe characters', () => {
    const cursor = encodeCursor({ before: 77235715, note: '>>>???~~~' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, isPosition)).toEqual({ before: 77235715, note: '>>>???~~~' });
  });

  it.each([
    ['not base64 !', 'characters outside the alphabet'],
    [Buffer.from('{"before":').toString('base64url'), 'broken JSON'],
    [encodeCursor({ after: 'x' }), 'the wrong shape'],
    ['a'.repeat(3000), 'an absurd length'],
  ])('refuses %s (%s) with 422 Invalid cursor', (cursor) => {
    expect(() => decodeCursor(cursor, isPosition)).toThrow(UnprocessableEntityException);
    expect(() => decodeCursor(cursor, isPosition)).toThrow('Invalid cursor');
  });
});

const request = (url: string, host = 'api.example', protocol: 'http' | 'https' = 'https') =>
  ({ url, host, protocol }) as unknown as FastifyRequest;

describe('buildLinkHeader', () => {
  it('gives no header when there is no other page', () => {
    expect(buildLinkHeader(request('/v1/repos/o/r/logs'), {})).toBeUndefined();
    expect(buildLinkHeader(request('/v1/repos/o/r/logs'), { next: null, prev: undefined })).toBeUndefined();
  });

  it('repeats the whole query, repeated keys in order, and replaces the cursor in place', () => {
    const header = buildLinkHeader(
      request(
        '/v1/repos/o/r/logs?event_type=a&cursor=old&event_type=b&received_from=2026-05-01T00%3A00%3A00%2B00%3A00',
      ),
      { next: 'c2', prev: 'c0' },
    );
    expect(header).toBe(
      '<https://api.example/v1/repos/o/r/logs?event_type=a&cursor=c2&event_type=b&received_from=2026-05-01T00%3A00%3A00%2B00%3A00>; rel="next", ' +
        '<https://api.example/v1/repos/o/r/logs?event_type=a&cursor=c0&event_type=b&received_from=2026-05-01T00%3A00%3A00%2B00%3A00>; rel="prev"',
    );
  });

  it('appends the cursor when the caller sent none, and keeps the port', () => {
    expect(buildLinkHeader(request('/v1/x?per_page=100', 'localhost:8080', 'http'), { next: 'abc' })).toBe(
      '<http://localhost:8080/v1/x?per_page=100&cursor=abc>; rel="next"',
    );
    expect(buildLinkHeader(request('/v1/x'), { first: 'f', last: 'l' })).toBe(
      '<https://api.example/v1/x?cursor=f>; rel="first", <https://api.example/v1/x?cursor=l>; rel="last"',
    );
  });

  it('escapes characters that would break out of <…>', () => {
    expect(buildLinkHeader(request('/v1/x?q=a>b "c"'), { next: 'n' })).toBe(
      '<https://api.example/v1/x?q=a%3Eb%20%22c%22&cursor=n>; rel="next"',
    );
  });
});
