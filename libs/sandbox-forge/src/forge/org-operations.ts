import { randomBytes, createHash } from 'node:crypto';
import { GitHubApiError, optionalString, requiredString } from './github-api-error';
import { SANDBOX_BOT, type ForgeTransaction } from './forge-transaction';
import { SANDBOX_INSTALLATION_ID, userNamed } from './github-shapes';
import type { RepositoryRecord, RepositoryRole, SandboxUser, TeamRecord } from './sandbox-records';

/** Teams and members, the App and its installation, users and their repository permission. */
type Body = Record<string, unknown>;

const organization = (login: string): SandboxUser => userNamed(login, 'Organization');

function teamFull(tx: ForgeTransaction, team: TeamRecord) {
  const org = organization(team.org);
  const orgUrl = `${tx.shapes.api}/orgs/${team.org}`;
  return {
    ...tx.shapes.teamSimple(team.org, team.slug, team),
    members_count: team.members.length,
    repos_count: 0,
    created_at: team.createdAt,
    updated_at: team.createdAt,
    organization: {
      login: org.login,
      id: org.id,
      node_id: tx.shapes.nodeId('Organization', org.id),
      url: orgUrl,
      repos_url: `${orgUrl}/repos`,
      events_url: `${orgUrl}/events`,
      hooks_url: `${orgUrl}/hooks`,
      issues_url: `${orgUrl}/issues`,
      members_url: `${orgUrl}/members{/member}`,
      public_members_url: `${orgUrl}/public_members{/member}`,
      avatar_url: `${tx.shapes.html}/avatars/${org.login}`,
      description: null,
      html_url: `${tx.shapes.html}/${org.login}`,
      has_organization_projects: false,
      has_repository_projects: false,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      type: 'Organization',
      created_at: team.createdAt,
      updated_at: team.createdAt,
      archived_at: null,
    },
  };
}

async function teamOrFail(tx: ForgeTransaction, org: string, slug: string): Promise<TeamRecord> {
  const team = await tx.store.team(org, slug);
  if (!team) throw GitHubApiError.notFound();
  return team;
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export async function createTeam(tx: ForgeTransaction, org: string, body: Body) {
  const name = requiredString(body, 'name');
  const slug = slugOf(name);
  if (slug === '')
    throw GitHubApiError.unprocessable('Validation Failed', [
      { resource: 'Team', field: 'name', code: 'invalid' },
    ]);
  if (await tx.store.team(org, slug))
    throw GitHubApiError.unprocessable('Validation Failed', [
      { resource: 'Team', field: 'name', code: 'already_exists' },
    ]);
  const team: TeamRecord = {
    id: await tx.store.nextId(),
    org,
    slug,
    name,
    description: optionalString(body, 'description') ?? null,
    members: [],
    createdAt: tx.timestamp,
  };
  await tx.store.saveTeam(team);
  return teamFull(tx, team);
}

export async function listTeams(tx: ForgeTransaction, org: string) {
  return (await tx.store.teams(org)).map((team) => tx.shapes.teamSimple(team.org, team.slug, team));
}

export async function getTeam(tx: ForgeTransaction, org: string, slug: string) {
  return teamFull(tx, await teamOrFail(tx, org, slug));
}

export async function listTeamMembers(tx: ForgeTransaction, org: string, slug: string) {
  return (await teamOrFail(tx, org, slug)).members.map((member) => tx.shapes.user(member));
}

const membership = (tx: ForgeTransaction, team: TeamRecord, login: string) => ({
  url: `${tx.shapes.api}/orgs/${team.org}/teams/${team.slug}/memberships/${login}`,
  role: 'member' as const,
  state: 'active' as const,
});

export async function getTeamMembership(tx: ForgeTransaction, org: string, slug: string, login: string) {
  const team = await teamOrFail(tx, org, slug);
  if (!team.members.some((member) => member.login.toLowerCase() === login.toLowerCase()))
    throw GitHubApiError.notFound();
  return membership(tx, team, login);
}

export async function addTeamMembership(tx: ForgeTransaction, org: string, slug: string, login: string) {
  const team = await teamOrFail(tx, org, slug);
  if (!team.members.some((member) => member.login.toLowerCase() === login.toLowerCase()))
    await tx.store.saveTeam({ ...team, members: [...team.members, userNamed(login)] });
  return membership(tx, team, login);
}

export async function removeTeamMembership(tx: ForgeTransaction, org: string, slug: string, login: string) {
  const team = await teamOrFail(tx, org, slug);
  if (!team.members.some((member) => member.login.toLowerCase() === login.toLowerCase()))
    throw GitHubApiError.notFound();
  await tx.store.saveTeam({
    ...team,
    members: team.members.filter((member) => member.login.toLowerCase() !== login.toLowerCase()),
  });
}

// --- the App, installations, users -----------------------------------------------------------------------

const owners = async (tx: ForgeTransaction) => [
  ...new Set((await tx.store.repositories()).map((repo) => repo.owner)),
];

export async function getApp(tx: ForgeTransaction) {
  const [first] = await tx.store.repositories();
  return tx.shapes.app(organization(first?.owner ?? SANDBOX_BOT.login), first?.createdAt ?? tx.timestamp);
}

/** One installation serves every owner of the sandbox: it holds every repository. */
export async function listInstallations(tx: ForgeTransaction) {
  const [first] = await tx.store.repositories();
  if (!first) return [];
  return [tx.shapes.installation(organization(first.owner), first.createdAt)];
}

export async function repositoryInstallation(tx: ForgeTransaction, owner: string, name: string) {
  const repo = await tx.repository(owner, name);
  return tx.shapes.installation(organization(repo.owner), repo.createdAt);
}

export async function ownerInstallation(tx: ForgeTransaction, owner: string) {
  if (!(await owners(tx)).some((known) => known.toLowerCase() === owner.toLowerCase()))
    throw GitHubApiError.notFound();
  const repo = (await tx.store.repositories()).find(
    (known) => known.owner.toLowerCase() === owner.toLowerCase(),
  )!;
  return tx.shapes.installation(organization(repo.owner), repo.createdAt);
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An installation token as @octokit/auth-app asks for it: valid one hour, accepted by the sandbox. */
export async function createInstallationToken(tx: ForgeTransaction, installationId: number) {
  if (installationId !== SANDBOX_INSTALLATION_ID) throw GitHubApiError.notFound();
  const token = `ghs_${randomBytes(18).toString('base64url')}`;
  const expiresAt = new Date(tx.now.getTime() + 3600_000);
  await tx.store.saveToken(hashToken(token), expiresAt);
  const [first] = await tx.store.repositories();
  return {
    token,
    expires_at: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    permissions: tx.shapes.app(organization(first?.owner ?? SANDBOX_BOT.login), tx.timestamp).permissions,
    repository_selection: 'all' as const,
  };
}

export async function installationRepositories(tx: ForgeTransaction) {
  const repositories = [];
  for (const repo of await tx.store.repositories()) repositories.push(await tx.repositoryJson(repo));
  return { total_count: repositories.length, repositories, repository_selection: 'all' };
}

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
