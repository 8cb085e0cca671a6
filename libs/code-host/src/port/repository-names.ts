/**
 * Repository names as GitHub allows them: an owner of letters, digits, hyphens and (for managed
 * users, `octocat_acme`) underscores, at most 39 characters; a name of letters, digits, `.`, `_`
 * and `-`, at most 100 characters, and neither `.` nor `..`, which GitHub reserves (as path
 * segments they would name another place). Every stream, read-model key and /v1 path holds them.
 */
const OWNER = /^[A-Za-z0-9_-]{1,39}$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export const isRepositoryOwner = (owner: string): boolean => OWNER.test(owner);

export const isRepositoryName = (name: string): boolean => NAME.test(name) && name !== '.' && name !== '..';

/** `owner/name`, both parts as above. */
export function isRepositoryFullName(fullName: string): boolean {
  const slash = fullName.indexOf('/');
  return (
    slash > 0 && isRepositoryOwner(fullName.slice(0, slash)) && isRepositoryName(fullName.slice(slash + 1))
  );
}
