import type { RecordedEvent } from '@switchyard/event-store';
import { FixedClock } from '@switchyard/kernel';
import type { ReactionContext } from '@switchyard/projection';
import type { CodeHost, RepositoryPermission } from '../../port/code-host';
import { summaryOf, type PullRequestSnapshot } from '../../port/pull-request-snapshot';
import type { CommandCommented, MergifyCommandName } from '../../facts/github-fact.events';
import { createPullRequestReaderReactor } from './pull-request-reader.reactor';

/** A code host that answers one pull request and a permission, and keeps the reads it was asked. */
function readingCodeHost(permission: RepositoryPermission) {
  const reads: string[] = [];
  // What the reactor looks at (author, where the head lives); the rest of a snapshot it only records.
  const snapshot = {
    repository: { owner: 'acme', name: 'rocket', fullName: 'acme/rocket', defaultBranch: 'main' },
    number: 7,
    author: 'alice',
    state: 'open',
    base: { ref: 'main', sha: 'b'.repeat(40), repositoryFullName: 'acme/rocket' },
    head: { ref: 'feature', sha: 'h'.repeat(40), repositoryFullName: 'acme/rocket' },
    reviews: [],
    files: [],
    commits: [],
    checks: [],
    commitsBehind: 0,
  } as unknown as PullRequestSnapshot;
  const codeHost = {
    getPermission: async () => permission,
    getPullRequest: async (_r: unknown, number: number) => {
      reads.push(`getPullRequest #${number}`);
      return snapshot;
    },
    getPullRequestSummary: async (_r: unknown, number: number) => {
      reads.push(`getPullRequestSummary #${number}`);
      return summaryOf(snapshot);
    },
  } as unknown as CodeHost;
  return { codeHost, reads, snapshot };
}

/** The reaction context as the runner gives it: the events its commands record, by type. */
function recordingContext() {
  const recorded: Array<{ type: string; data: unknown }> = [];
  const context = {
    signal: new AbortController().signal,
    assertOwnership: () => undefined,
    issue: async (
      _streamId: string,
      _decider: unknown,
      command: { event: { type: string; data: unknown } },
    ) => {
      recorded.push(command.event);
      return { events: [], alreadyApplied: false };
    },
  } as unknown as ReactionContext;
  return { context, recorded };
}

const commented = (command: MergifyCommandName): RecordedEvent =>
  ({
    type: 'github.command_commented',
    position: '1',
    data: {
      repository: 'acme/rocket',
      number: 7,
      command,
      argument: null,
      author: { login: 'bob', id: 2, type: 'User' },
      commentId: 1,
      commentUrl: 'https://github.test/acme/rocket/pull/7#issuecomment-1',
    } satisfies CommandCommented['data'],
  }) as unknown as RecordedEvent;

describe('pull request reader: a command reads its pull request once', () => {
  const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
  const logger = { warn: () => undefined };

  it('refresh: the one whole read decides the command and is recorded', async () => {
    const { codeHost, reads, snapshot } = readingCodeHost('write');
    const { context, recorded } = recordingContext();
    await createPullRequestReaderReactor({ codeHost, clock, logger }).react(commented('refresh'), context);

    expect(reads).toEqual(['getPullRequest #7']);
    expect(recorded.map((event) => event.type)).toEqual([
      'github.command_accepted',
      'github.pull_request_read',
    ]);
    expect(recorded[1]!.data).toMatchObject({ number: 7, reason: 'refresh', snapshot });
  });

  it.each(['queue', 'dequeue'] as const)(
    '%s: its author and head are all it needs, from the summary',
    async (command) => {
      const { codeHost, reads } = readingCodeHost('write');
      const { context, recorded } = recordingContext();
      await createPullRequestReaderReactor({ codeHost, clock, logger }).react(commented(command), context);

      expect(reads).toEqual(['getPullRequestSummary #7']);
      expect(recorded.map((event) => event.type)).toEqual(['github.command_accepted']);
    },
  );

  it('refresh refused: read once, nothing recorded as read', async () => {
    const { codeHost, reads } = readingCodeHost('read');
    const { context, recorded } = recordingContext();
    await createPullRequestReaderReactor({ codeHost, clock, logger }).react(commented('refresh'), context);

    expect(reads).toEqual(['getPullRequest #7']);
    expect(recorded.map((event) => event.type)).toEqual(['github.command_refused']);
  });
});
