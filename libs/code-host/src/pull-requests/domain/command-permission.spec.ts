import { commandRefusal, type CommandRequest } from './command-permission';

const request = (overrides: Partial<CommandRequest>): CommandRequest => ({
  command: 'queue',
  author: 'octo',
  authorPermission: 'write',
  pullRequestAuthor: 'someone',
  fromFork: false,
  ...overrides,
});

describe('commandRefusal (queue-semantics §1.9)', () => {
  it.each(['write', 'maintain', 'admin'] as const)(
    'lets a commenter with %s permission give any command',
    (permission) => {
      for (const command of ['queue', 'dequeue', 'requeue', 'refresh'] as const)
        expect(commandRefusal(request({ command, authorPermission: permission }))).toBeNull();
    },
  );

  it.each(['read', 'triage', 'none'] as const)('refuses a commenter with %s permission', (permission) => {
    expect(commandRefusal(request({ authorPermission: permission }))).toBe(
      `@octo has ${permission} permission; the queue command needs write`,
    );
  });

  it('accepts refresh from the author of a fork pull request, and nothing else from them', () => {
    const author = {
      author: 'forker',
      pullRequestAuthor: 'forker',
      authorPermission: 'read' as const,
      fromFork: true,
    };
    expect(commandRefusal(request({ ...author, command: 'refresh' }))).toBeNull();
    expect(commandRefusal(request({ ...author, command: 'queue' }))).not.toBeNull();
    expect(commandRefusal(request({ ...author, command: 'refresh', fromFork: false }))).not.toBeNull();
  });
});
