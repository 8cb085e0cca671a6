import { GitHubApiError, optionalBoolean, requiredString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';

/** Branches and git refs: listing, reading, creating, moving and deleting them. */
type Body = Record<string, unknown>;

export async function listBranches(tx: ForgeTransaction, owner: string, name: string) {
  const repo = await tx.repository(owner, name);
  return (await tx.store.refs(repo.id, 'refs/heads/')).map(({ ref, sha }) => ({
    name: ref.slice('refs/heads/'.length),
    commit: { sha, url: `${tx.shapes.api}/repos/${repo.owner}/${repo.name}/commits/${sha}` },
    protected: false,
  }));
}

export async function getBranch(tx: ForgeTransaction, owner: string, name: string, branch: string) {
  const repo = await tx.repository(owner, name);
  const sha = await tx.branchHeadOrFail(repo, branch);
  const url = `${tx.shapes.api}/repos/${repo.owner}/${repo.name}/branches/${branch}`;
  return {
    name: branch,
    commit: tx.shapes.commit(repo, await tx.commitOrFail(sha)),
    _links: { html: `${tx.shapes.html}/${repo.owner}/${repo.name}/tree/${branch}`, self: url },
    protected: false,
    protection: {
      enabled: false,
      required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] },
    },
    protection_url: `${url}/protection`,
  };
}

const fullRef = (ref: string) => (ref.startsWith('refs/') ? ref : `refs/${ref}`);

/** git's rules for ref names (check-ref-format), and GitHub's 255 characters. */
const validRefName = (ref: string) =>
  ref.length <= 255 &&
  // eslint-disable-next-line no-control-regex -- git refuses control characters in ref names.
  !/[\u0000-\u001f\u007f]/.test(ref) &&
  /^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/.test(ref) &&
  !ref.includes('..') &&
  !ref.endsWith('/') &&
  !ref.endsWith('.lock');

export async function getRef(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const sha = await tx.store.ref(repo.id, fullRef(ref));
  if (!sha) throw GitHubApiError.notFound();
  return tx.shapes.ref(repo, fullRef(ref), sha);
}

export async function matchingRefs(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  return (await tx.store.refs(repo.id, fullRef(ref))).map((each) => tx.shapes.ref(repo, each.ref, each.sha));
}

export async function createRef(tx: ForgeTransaction, owner: string, name: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const ref = requiredString(body, 'ref');
  const sha = requiredString(body, 'sha');
  if (!validRefName(ref)) throw GitHubApiError.unprocessable(`${ref} is not a valid ref name.`);
  if (await tx.store.ref(repo.id, ref)) throw GitHubApiError.unprocessable('Reference already exists');
  await tx.commitOrFail(sha);
  await tx.moveRef(repo, ref, sha);
  return tx.shapes.ref(repo, ref, sha);
}

export async function updateRef(tx: ForgeTransaction, owner: string, name: string, ref: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const target = fullRef(ref);
  const sha = requiredString(body, 'sha');
  const force = optionalBoolean(body, 'force') ?? false;
  const current = await tx.store.ref(repo.id, target);
  if (!current) throw GitHubApiError.unprocessable('Reference does not exist');
  await tx.commitOrFail(sha);
  if (!force && !(await tx.isAncestor(current, sha)))
    throw GitHubApiError.unprocessable('Update is not a fast forward');
  await tx.moveRef(repo, target, sha, !(await tx.isAncestor(current, sha)));
  return tx.shapes.ref(repo, target, sha);
}

export async function deleteRef(tx: ForgeTransaction, owner: string, name: string, ref: string) {
  const repo = await tx.repository(owner, name);
  const target = fullRef(ref);
  if (!(await tx.store.ref(repo.id, target))) throw GitHubApiError.unprocessable('Reference does not exist');
  await tx.moveRef(repo, target, null);
}
