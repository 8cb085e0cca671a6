import type { MergifyCommandName } from './github-fact.events';

export interface ParsedCommand {
  command: MergifyCommandName;
  argument: string | null;
}

const COMMANDS: readonly MergifyCommandName[] = ['queue', 'dequeue', 'requeue', 'refresh'];

/**
 * Queue-semantics §1.9: a command is a comment whose first line starts with `@mergifyio` or
 * `@mergify` (any case), one space, then the command word; arguments follow on the same line.
 * Anything else (a mention mid-sentence, another command word) is not a command for us.
 */
const COMMAND_LINE = /^@(?:mergifyio|mergify) ([a-z-]+)(?: +(.*))?$/i;

export function parseMergifyCommand(body: string): ParsedCommand | null {
  const firstLine = body.split(/\r?\n/, 1)[0]!.trimEnd();
  const match = COMMAND_LINE.exec(firstLine);
  if (!match) return null;
  const word = match[1]!.toLowerCase() as MergifyCommandName;
  if (!COMMANDS.includes(word)) return null;
  const argument = match[2]?.trim() || null;
  // `queue [queue-name]` and `requeue [queue-name]` (docs.mergify.com/commands/queue, /requeue;
  // requeue is an alias of queue since 2026-02-18) take a queue name; the others take nothing.
  return { command: word, argument: word === 'queue' || word === 'requeue' ? argument : null };
}
