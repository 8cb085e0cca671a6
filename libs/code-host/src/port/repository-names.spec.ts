import { isRepositoryFullName, isRepositoryName, isRepositoryOwner } from './repository-names';

describe('repository names', () => {
  it.each(['octo/hello-world', 'Octo-Org/.github', 'octocat_acme/repo.js', 'a/_'])('accepts %s', (name) =>
    expect(isRepositoryFullName(name)).toBe(true),
  );

  it.each([
    'octo',
    '/repo',
    'octo/',
    'octo/..',
    'octo/.',
    'octo/a/b',
    'oc.to/repo',
    'octo/re po',
    'octo/a\u0000b',
    `${'o'.repeat(40)}/repo`,
    `octo/${'r'.repeat(101)}`,
  ])('refuses %j', (name) => expect(isRepositoryFullName(name)).toBe(false));

  it('judges the parts alone', () => {
    expect(isRepositoryOwner('o'.repeat(39))).toBe(true);
    expect(isRepositoryName('..')).toBe(false);
    expect(isRepositoryName('...')).toBe(true);
  });
});
