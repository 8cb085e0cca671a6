import {
  builtInConditions,
  type ConditionsSource,
  type ConfiguredConditions,
  readConditions,
} from '../schema/conditions-field';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import { RESTRICTED_COMMANDS, type RestrictedCommand } from '../schema/mergify-configuration';
import { keys, readMapping, refuseUnknownKeys } from '../schema/readers';

const WRITE_PERMISSION = 'sender-permission >= write';
/** Commands a fork pull request's author may also run on their own pull request. */
const AUTHOR_ON_FORK: ConditionsSource = [
  { or: [WRITE_PERMISSION, { and: ['sender = {{author}}', 'from-fork'] }] },
];

/** Queue-semantics §1.9: write permission by default; update, rebase, squash and refresh also the fork's author. */
const WRITERS = builtInConditions([WRITE_PERMISSION]);
const WRITERS_OR_FORK_AUTHOR = builtInConditions(AUTHOR_ON_FORK);

export const DEFAULT_COMMAND_RESTRICTIONS: Record<RestrictedCommand, ConfiguredConditions> = {
  backport: WRITERS,
  copy: WRITERS,
  dequeue: WRITERS,
  queue: WRITERS,
  rebase: WRITERS_OR_FORK_AUTHOR,
  refresh: WRITERS_OR_FORK_AUTHOR,
  requeue: WRITERS,
  squash: WRITERS_OR_FORK_AUTHOR,
  update: WRITERS_OR_FORK_AUTHOR,
};

/** `commands_restrictions.<command>.conditions`, replacing that command's default. */
export function readCommandsRestrictions(
  value: unknown,
  at: Cursor,
): Record<RestrictedCommand, ConfiguredConditions> | Invalid {
  if (value === undefined || value === null) return DEFAULT_COMMAND_RESTRICTIONS;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, new Set(RESTRICTED_COMMANDS));
  const restrictions = { ...DEFAULT_COMMAND_RESTRICTIONS };
  for (const command of RESTRICTED_COMMANDS) {
    if (mapping[command] === undefined) continue;
    const commandAt = at.at(command);
    const entry = readMapping(mapping[command], commandAt);
    if (entry === INVALID) continue;
    refuseUnknownKeys(entry, commandAt, keys('conditions'));
    if (entry.conditions === undefined) continue;
    const conditions = readConditions(entry.conditions, commandAt.at('conditions'));
    if (conditions !== INVALID) restrictions[command] = conditions;
  }
  return at.findings.problems.length > before ? INVALID : restrictions;
}
