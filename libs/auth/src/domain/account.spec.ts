import { defaultAccountId, isValidAccountLogin } from './account';

describe('defaultAccountId', () => {
  it('is stable, case-insensitive and a positive 31-bit integer', () => {
    const id = defaultAccountId('Mergifyio');
    expect(id).toBe(defaultAccountId('mergifyio'));
    expect(id).toBeGreaterThan(0);
    expect(id).toBeLessThanOrEqual(0x7fffffff);
    expect(Number.isInteger(id)).toBe(true);
  });

  it('differs between logins', () => {
    expect(defaultAccountId('acme')).not.toBe(defaultAccountId('acme-corp'));
  });

  it('pins the value so ids never move between releases', () => {
    expect(defaultAccountId('acme')).toBe(defaultAccountId('ACME'));
    expect(defaultAccountId('acme')).toMatchInlineSnapshot(`1174237615`);
  });
});

describe('isValidAccountLogin', () => {
  it.each([
    ['Mergifyio', true],
    ['my-org-2', true],
    ['a'.repeat(40), true],
    ['a'.repeat(41), false],
    ['', false],
    ['under_score', false],
  ])('%s -> %s', (login, valid) => {
    expect(isValidAccountLogin(login)).toBe(valid);
  });
});
