import { randomBytes, createHash } from 'node:crypto';
import { GitHubApiError } from '../github-api-error';
import { SANDBOX_BOT, type ForgeTransaction } from '../forge-transaction';
import { organization, SANDBOX_INSTALLATION_ID } from '../github-shapes';

// The App and its one installation, and the installation tokens it hands out.

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
