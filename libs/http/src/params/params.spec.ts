import { RequestValidationException } from '../validation/validation-issue';
import { parsePullNumber } from './pull-number.pipe';
import { parseRepositoryRef } from './repository-ref';
import { UuidPipe } from './uuid.pipe';

const issuesOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof RequestValidationException) return error.issues;
    throw error;
  }
  throw new Error('expected a validation failure');
};

describe('parseRepositoryRef', () => {
  it('keeps the spelling and derives a lower-cased key', () => {
    expect(parseRepositoryRef({ owner: 'Mergifyio', repository: 'Mergify-Engine.py' })).toEqual({
      owner: 'Mergifyio',
      repository: 'Mergify-Engine.py',
      key: 'mergifyio/mergify-engine.py',
    });
  });

  it('reports both parameters at once', () => {
    expect(issuesOf(() => parseRepositoryRef({ owner: 'a'.repeat(41), repository: 'bad/name' }))).toEqual([
      expect.objectContaining({ type: 'string_too_long', loc: ['path', 'owner'], ctx: { max_length: 40 } }),
      expect.objectContaining({
        type: 'string_pattern_mismatch',
        loc: ['path', 'repository'],
        input: 'bad/name',
      }),
    ]);
  });

  it.each([
    [{ owner: 'under_score', repository: 'r' }, 'owner'],
    [{ owner: 'o', repository: 'r'.repeat(101) }, 'repository'],
    [{ owner: '', repository: 'r' }, 'owner'],
  ])('refuses %j', (params, name) => {
    expect(issuesOf(() => parseRepositoryRef(params))[0]!.loc).toEqual(['path', name]);
  });
});

describe('parsePullNumber', () => {
  it('parses exactly, beyond 2^53', () => {
    expect(parsePullNumber('9223372036854775807', 'number')).toBe(9223372036854775807n);
    expect(parsePullNumber('9007199254740993', 'number')).toBe(9007199254740993n);
    expect(parsePullNumber('0', 'number')).toBe(0n);
  });

  it.each([
    ['9223372036854775808', 'less_than_equal'],
    ['-1', 'greater_than_equal'],
    ['12a', 'int_parsing'],
    ['1.0', 'int_parsing'],
    ['', 'int_parsing'],
  ])('refuses %s as %s', (value, type) => {
    expect(issuesOf(() => parsePullNumber(value, 'pr_number'))).toEqual([
      expect.objectContaining({ type, loc: ['path', 'pr_number'], input: value }),
    ]);
  });
});

describe('UuidPipe', () => {
  const pipe = new UuidPipe();
  it('lower-cases a valid uuid', () => {
    expect(
      pipe.transform('7B0E6F1E-6A3C-4F8E-9A52-2C8D1F0C9E11', { type: 'param', data: 'quarantine_id' }),
    ).toBe('7b0e6f1e-6a3c-4f8e-9a52-2c8d1f0c9e11');
  });

  it('refuses anything else with loc path', () => {
    expect(issuesOf(() => pipe.transform('abc-123', { type: 'param', data: 'freeze_id' }))).toEqual([
      expect.objectContaining({ type: 'uuid_parsing', loc: ['path', 'freeze_id'], input: 'abc-123' }),
    ]);
  });
});
