import { findUnstorableText } from './unstorable-text-in';
import { unstorableCharacterProblem } from './storable-string';

describe('unstorable text in a JSON value', () => {
  it('finds nothing in storable values of any shape', () => {
    expect(findUnstorableText({ a: ['x', 1, null, true, { b: '🚀' }], c: 'é' })).toBeNull();
    expect(findUnstorableText('plain')).toBeNull();
    expect(findUnstorableText(42)).toBeNull();
  });

  it('names the path of a value with a NUL or a lone surrogate, in document order', () => {
    expect(findUnstorableText({ a: { b: ['ok', 'x\u0000'] }, z: '\uD800' })).toMatchObject({
      path: 'a.b[1]',
      inKey: false,
      problem: { kind: 'nul' },
    });
    expect(findUnstorableText(['\uDC00'])).toMatchObject({
      path: '[0]',
      problem: { kind: 'lone_surrogate' },
    });
    expect(findUnstorableText('\u0000')).toMatchObject({ path: '' });
  });

  it('checks keys too: jsonb refuses them as surely as values', () =>
    expect(findUnstorableText({ ok: { 'bad\u0000key': 1 } })).toMatchObject({
      path: 'ok.bad\u0000key',
      inKey: true,
    }));

  it('walks deep values without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(findUnstorableText(deep)?.problem.kind).toBe('nul');
  });

  it('has no length rule: long text is bounded by its own field', () =>
    expect(unstorableCharacterProblem('x'.repeat(100_000))).toBeNull());
});
