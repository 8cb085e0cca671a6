import { GitHubCodeHost, RequestMeter, TokenClients } from '@switchyard/github';
import { describeCodeHostContract, type CodeHostContractFixture } from '@switchyard/code-host/port/contract';
import { ContractCheckedClient, GitHubRestContract } from '@switchyard/github/testing/github-contract';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * The Octokit adapter, the one production path, against the sandbox forge over HTTP: it must pass
 * the port contract, and every request it sends and answer it gets must match GitHub's published
 * REST description (@octokit/openapi).
 */
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const TEAMMATE_TOKEN = 'contract-teammate-token-0123456789';

let app: TestApp;
let fixture: CodeHostContractFixture;
const drift: string[] = [];

beforeAll(async () => {
  app = await startTestApp({
    SWITCHYARD_SANDBOX_CI_SECONDS: '0',
    SWITCHYARD_HOST_TOKENS: JSON.stringify({
      [TEAMMATE_TOKEN]: { user: { id: 5151, login: 'tess-teammate' }, accounts: ['acme'] },
    }),
  });
  const apiBase = `${app.baseUrl}/sandbox/github`;
  const forge = new ContractCheckedClient(apiBase, app.adminKey);
  const contract = GitHubRestContract.load();
  const meter = new RequestMeter();
  const clients = new TokenClients(async () => apiBase, app.adminKey, meter, { warn: () => undefined });
  const octokit = await clients.forRepository();
  octokit.hook.wrap('request', async (request, options) => {
    const endpoint = octokit.request.endpoint.parse(options);
    const path = new URL(endpoint.url).pathname.slice('/sandbox/github'.length);
    const method = endpoint.method;
    for (const violation of contract.checkRequest(method, path, endpoint.body ?? undefined))
      drift.push(`request ${method} ${path}: ${violation}`);
    try {
      const response = await request(options);
      for (const violation of contract.checkResponse(method, path, response.status, response.data))
        drift.push(`answer ${method} ${path} → ${response.status}: ${violation}`);
      return response;
    } catch (error) {
      const failed = error as { status?: number; response?: { data?: unknown } };
      if (failed.status && failed.response)
        for (const violation of contract.checkResponse(method, path, failed.status, failed.response.data))
          drift.push(`answer ${method} ${path} → ${failed.status}: ${violation}`);
      throw error;
    }
  });

  fixture = {
    codeHost: new GitHubCodeHost(clients, meter),
    async newRepository(label) {
      const [owner, name] = uniqueRepository(`contract-${label}`).split('/') as [string, string];
      return { owner, name };
    },
    async commitFile(repository, branch, path, content) {
      const full = `/repos/${repository.owner}/${repository.name}`;
      const existing = await forge.request('GET', `${full}/contents/${path}?ref=${branch}`);
      const put = await forge.request('PUT', `${full}/contents/${path}`, {
        message: `edit ${path}`,
        content: base64(content),
        branch,
        ...(existing.status === 200 ? { sha: existing.body.sha } : {}),
      });
      if (put.status !== 200 && put.status !== 201) throw new Error(`commit failed: ${put.status}`);
      return put.body.commit.sha as string;
    },
    async openPullRequest(repository, head, base) {
      const opened = await forge.request('POST', `/repos/${repository.owner}/${repository.name}/pulls`, {
        title: `Merge ${head}`,
        head,
        base,
      });
      if (opened.status !== 201) throw new Error(`pull request: ${opened.status}`);
      return opened.body.number as number;
    },
    async commentAsAnotherUser(repository, number, body) {
      const posted = await forge
        .as(TEAMMATE_TOKEN, 'Bearer')
        .request('POST', `/repos/${repository.owner}/${repository.name}/issues/${number}/comments`, { body });
      if (posted.status !== 201) throw new Error(`comment: ${posted.status}`);
    },
    async addTeamMember(org, team, login) {
      const created = await forge.request('POST', `/orgs/${org}/teams`, { name: team });
      if (created.status !== 201 && created.status !== 422) throw new Error(`team: ${created.status}`);
      const added = await forge.request('PUT', `/orgs/${org}/teams/${team}/memberships/${login}`, {
        role: 'member',
      });
      if (added.status !== 200) throw new Error(`membership: ${added.status}`);
    },
    afterEach() {
      const found = [...drift, ...forge.violations];
      drift.length = 0;
      forge.violations.length = 0;
      expect(found).toEqual([]);
    },
  };
}, 180_000);

afterAll(() => app?.close());

// Each contract test makes tens of calls on a shared, loaded machine.
jest.setTimeout(120_000);

describeCodeHostContract('Octokit adapter against the sandbox forge', () => fixture);
