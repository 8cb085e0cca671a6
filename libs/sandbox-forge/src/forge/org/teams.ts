import { GitHubApiError, optionalString, requiredString } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import { organization, userNamed } from '../github-shapes';
import type { TeamRecord } from '../sandbox-records';

/** An organization's teams and their members. */
type Body = Record<string, unknown>;

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
