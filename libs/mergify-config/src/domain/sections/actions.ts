import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import { ACTION_NAMES, type ActionName, type ActionsConfiguration } from '../schema/mergify-configuration';
import { readMapping } from '../schema/readers';
import { readActionOptions } from './action-options';

const isActionName = (name: string): name is ActionName => (ACTION_NAMES as readonly string[]).includes(name);

/** An `actions` mapping as written: each action's own options, validated, without defaults. */
export function readActions(value: unknown, at: Cursor): ActionsConfiguration | Invalid {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  const actions: ActionsConfiguration = {};
  for (const [name, options] of Object.entries(mapping)) {
    if (!isActionName(name)) {
      at.at(name).fail(`unknown action '${name}'`);
      continue;
    }
    const read = readActionOptions(name, options, at.at(name));
    if (read !== INVALID) actions[name] = read;
  }
  return at.findings.problems.length > before ? INVALID : actions;
}
