import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import { factsOfDelivery } from '../facts/facts-of-delivery';
import { DeliverySchemas } from './delivery-schemas';

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const example = (event: string, action?: string): Payload =>
  structuredClone(
    (examples as { name: string; examples: Payload[] }[])
      .find((group) => group.name === event)!
      .examples.find((payload) => action === undefined || payload.action === action)!,
  );

const changed = (event: string, action: string | undefined, change: (payload: Payload) => void) => {
  const payload = example(event, action);
  change(payload);
  return payload;
};

describe('the webhook door', () => {
  const schemas = new DeliverySchemas();

  it.each([
    [
      'pull_request',
      'a retyped number',
      changed('pull_request', 'opened', (p) => (p.pull_request.number = 'abc')),
      'pull_request.number',
      'must be integer',
    ],
    [
      'pull_request',
      'no repository',
      changed('pull_request', 'opened', (p) => delete p.repository),
      'repository',
      'is required',
    ],
    [
      'pull_request',
      'no pull request',
      changed('pull_request', 'opened', (p) => delete p.pull_request),
      'pull_request',
      'is required',
    ],
    [
      'push',
      'no repository',
      changed('push', undefined, (p) => delete p.repository),
      'repository',
      'is required',
    ],
    [
      'issue_comment',
      'a comment without its user',
      changed('issue_comment', 'created', (p) => delete p.comment.user),
      'comment.user',
      'is required',
    ],
    [
      'check_run',
      'no check run',
      changed('check_run', 'completed', (p) => delete p.check_run),
      'check_run',
      'is required',
    ],
    [
      'pull_request_review',
      'no review',
      changed('pull_request_review', 'submitted', (p) => delete p.review),
      'review',
      'is required',
    ],
    [
      'installation_repositories',
      'a null full name',
      changed('installation_repositories', 'added', (p) => (p.repositories_added[0].full_name = null)),
      'repositories_added[0].full_name',
      'must be string',
    ],
    [
      'pull_request',
      'labels as a string',
      changed('pull_request', 'labeled', (p) => (p.pull_request.labels = 'bug')),
      'pull_request.labels',
      'must be array',
    ],
    [
      'pull_request',
      'a NUL in the title',
      changed('pull_request', 'opened', (p) => (p.pull_request.title = 'a\u0000b')),
      'pull_request.title',
      'must not contain the NUL character (U+0000)',
    ],
    [
      'issue_comment',
      'a NUL in a comment',
      changed('issue_comment', 'created', (p) => (p.comment.body = '@mergify queue\u0000')),
      'comment.body',
      'must not contain the NUL character (U+0000)',
    ],
    [
      'pull_request',
      'a NUL in the full name',
      changed('pull_request', 'opened', (p) => (p.repository.full_name = 'a/b\u0000')),
      'repository.full_name',
      'must be `owner/name` as GitHub names repositories',
    ],
    [
      'pull_request',
      'a lone surrogate in the title',
      changed('pull_request', 'opened', (p) => (p.pull_request.title = 'x\uD800')),
      'pull_request.title',
      'must not contain a lone UTF-16 surrogate',
    ],
    [
      'pull_request',
      'a number beyond PostgreSQL integers',
      changed('pull_request', 'opened', (p) => (p.pull_request.number = 2 ** 31)),
      'pull_request.number',
      'must be between 1 and 2147483647',
    ],
    [
      'check_run',
      'a completion in year 10000',
      changed('check_run', 'completed', (p) => (p.check_run.completed_at = '+010000-01-01T00:00:00Z')),
      'check_run.completed_at',
      'must be an RFC 3339 date-time between years 1 and 9999',
    ],
    [
      'pull_request',
      'a repository named ..',
      changed('pull_request', 'opened', (p) => (p.repository.full_name = 'octo/..')),
      'repository.full_name',
      'must be `owner/name` as GitHub names repositories',
    ],
    [
      'pull_request',
      'an oversized body',
      changed('pull_request', 'opened', (p) => (p.pull_request.body = 'x'.repeat(65_537))),
      'pull_request.body',
      'must be at most 65536 characters',
    ],
  ])('refuses a %s delivery with %s, naming the field', (event, _, payload, field, problem) =>
    expect(schemas.check(event, payload)).toEqual({ ok: false, field, problem }),
  );

  it('names the body itself when it is not an object', () =>
    expect(schemas.check('push', [])).toEqual({ ok: false, field: '(the body)', problem: 'must be object' }));

  it('lets through what it does not read, and events it does not read', () => {
    const payload = changed('pull_request', 'opened', (p) => {
      p.pull_request.auto_merge = 'anything';
      p.repository.has_discussions = null;
      delete p.pull_request.html_url;
    });
    expect(schemas.check('pull_request', payload)).toEqual({ ok: true });
    expect(schemas.check('star', { anything: '\u0000' })).toEqual({ ok: true });
  });

  it('lets through a command comment whose author is gone, which records nothing', () => {
    const payload = changed('issue_comment', 'created', (p) => {
      p.issue.pull_request = { url: 'https://api.github.com/repos/o/r/pulls/1' };
      p.comment.body = '@mergify queue';
      p.comment.user = null;
    });
    expect(schemas.check('issue_comment', payload)).toEqual({ ok: true });
    expect(factsOfDelivery('issue_comment', payload)).toBeNull();
  });
});
