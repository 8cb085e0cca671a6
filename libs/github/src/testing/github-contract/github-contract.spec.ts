import { GitHubRestContract } from './github-rest-contract';
import { GitHubWebhookContract } from './github-webhook-contract';
import { openApiNullable } from './openapi-nullable';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const examples: Array<{ name: string; examples: unknown[] }> = require('@octokit/webhooks-examples');

describe('GitHub contract validators', () => {
  const rest = GitHubRestContract.load();
  const webhooks = GitHubWebhookContract.load();

  it('finds the documented template of a concrete path', () => {
    expect(rest.templateFor('GET', '/repos/acme/widgets/pulls/12')).toBe(
      '/repos/{owner}/{repo}/pulls/{pull_number}',
    );
    expect(rest.templateFor('PUT', '/repos/acme/widgets/contents/src/a/b.ts')).toBe(
      '/repos/{owner}/{repo}/contents/{path}',
    );
    expect(rest.templateFor('GET', '/repos/acme/widgets/compare/main...feature/x')).toBe(
      '/repos/{owner}/{repo}/compare/{basehead}',
    );
    expect(rest.templateFor('POST', '/nowhere/at/all')).toBeNull();
  });

  it('accepts a documented error body and refuses a malformed one', () => {
    const path = '/repos/acme/widgets/pulls/12';
    expect(
      rest.checkResponse('GET', path, 404, {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com',
      }),
    ).toEqual([]);
    expect(rest.checkResponse('GET', path, 200, { number: 'twelve' }).length).toBeGreaterThan(0);
    expect(rest.checkResponse('GET', path, 418, {})).toEqual([expect.stringContaining('not documented')]);
    // Not Found is GitHub's answer to a missing resource everywhere, documented or not for the operation.
    const comment = '/repos/acme/widgets/issues/comments/99';
    expect(rest.checkResponse('PATCH', comment, 404, { message: 'Not Found' })).toEqual([]);
    expect(rest.checkResponse('PATCH', comment, 404, { message: 404 }).length).toBeGreaterThan(0);
  });

  it('reads nullable enums and the installation account as GitHub answers them', () => {
    expect(
      rest.checkResponse('GET', '/app/installations', 200, [{ account: { login: 1 } }]).length,
    ).toBeGreaterThan(0);
    const nullable = openApiNullable({ type: 'string', nullable: true, enum: ['a'] });
    expect(nullable).toEqual({ type: 'string', nullable: true, enum: ['a', null] });
    expect(openApiNullable({ nullable: true, allOf: [{ $ref: '#/x' }] })).toEqual({
      anyOf: [{ allOf: [{ $ref: '#/x' }] }, { type: 'null' }],
    });
    expect(openApiNullable({ allOf: [{ title: 'Simple User' }, { title: 'Enterprise' }] })).toEqual({
      anyOf: [{ title: 'Simple User' }, { title: 'Enterprise' }],
    });
  });

  it('checks request bodies', () => {
    const path = '/repos/acme/widgets/pulls';
    expect(rest.checkRequest('POST', path, { title: 't', head: 'feature', base: 'main' })).toEqual([]);
    expect(
      rest.checkRequest('POST', path, { title: 3, head: 'feature', base: 'main' }).length,
    ).toBeGreaterThan(0);
  });

  it('refuses a webhook payload that drifts from the description', () => {
    const pushes = examples.find((entry) => entry.name === 'push')!.examples;
    const drifted = { ...(pushes[0] as object), repository: { id: 'not-a-number' } };
    expect(webhooks.check('push', drifted)).toEqual(
      expect.arrayContaining([expect.stringContaining('/repository')]),
    );
    expect(webhooks.check('no_such_event', {})).toEqual([expect.stringContaining('no such webhook')]);
  });

  it('picks the schema of the event and action', () => {
    expect(GitHubWebhookContract.webhookKey('pull_request', 'ready_for_review')).toBe(
      'pull-request-ready-for-review',
    );
    expect(GitHubWebhookContract.webhookKey('push', undefined)).toBe('push');
  });
});
