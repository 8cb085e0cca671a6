import { GitHubApiError, optionalString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import { userNamed } from '../github-shapes';
import type { RepositoryRecord, RepositoryRole, SandboxUser } from '../sandbox-records';
import { listInstallations } from './installations';

/** Users: the authenticated one, their installations, and their permission on a repository. */
type Body = Record<string, unknown>;

export async function authenticatedUser(tx: ForgeTransaction) {
  const user = tx.actor;
  return {
    ...tx.shapes.user(user),
    name: user.login,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: tx.timestamp,
    updated_at: tx.timestamp,
  };
}

export async function userInstallations(tx: ForgeTransaction) {
  const installations = await listInstallations(tx);
  return { total_count: installations.length, installations };
}

/** A user's role: the one given with `PUT collaborators`, else write; the App's bot administers. */
function roleOf(repo: RepositoryRecord, user: SandboxUser): RepositoryRole {
  if (user.type === 'Bot') return 'admin';
  return repo.collaborators?.[user.login.toLowerCase()] ?? 'write';
}

export async function collaboratorPermission(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  login: string,
) {
  const repo = await tx.repository(owner, name);
  const user = userNamed(login, login.endsWith('[bot]') ? 'Bot' : 'User');
  const role = roleOf(repo, user);
  // `permission` folds maintain into write and triage into read; `role_name` keeps them.
  const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
  return { permission, role_name: role, user: { ...tx.shapes.user(user), role_name: role } };
}

/** The `permission` values GitHub takes when adding a collaborator, and the roles they give. */
const ROLE_OF_PERMISSION: Record<string, RepositoryRole> = {
  pull: 'read',
  triage: 'triage',
  push: 'write',
  maintain: 'maintain',
  admin: 'admin',
};

/**
 * Gives `login` a role on the repository (GitHub's "add a repository collaborator"). Needs admin,
 * as on GitHub. The sandbox has no invitations: the role holds at once, answered as GitHub
 * answers for an existing collaborator (204).
 */
export async function addCollaborator(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  login: string,
  body: Body,
): Promise<void> {
  const repo = await tx.repository(owner, name);
  if (roleOf(repo, tx.actor) !== 'admin')
    throw new GitHubApiError(403, 'Must have admin rights to Repository.');
  const permission = optionalString(body, 'permission') ?? 'push';
  const role = ROLE_OF_PERMISSION[permission];
  if (!role)
    throw GitHubApiError.unprocessable('Validation Failed', [
      { resource: 'Repository', field: 'permission', code: 'invalid' },
    ]);
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(login)) throw GitHubApiError.notFound();
  await tx.store.saveRepository({
    ...repo,
    collaborators: { ...repo.collaborators, [login.toLowerCase()]: role },
  });
}
