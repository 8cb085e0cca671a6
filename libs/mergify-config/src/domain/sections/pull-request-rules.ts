import { readConditions } from '../schema/conditions-field';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import type {
  ActionsConfiguration,
  ActionName,
  PullRequestRuleConfiguration,
} from '../schema/mergify-configuration';
import {
  anyInvalid,
  field,
  keys,
  nullable,
  readMapping,
  refuseUnknownKeys,
  requiredField,
  stringReader,
} from '../schema/readers';
import { withActionDefaults } from './action-options';
import { readActions } from './actions';

export const MAX_PULL_REQUEST_RULES = 200;

const KNOWN = keys('name', 'description', 'disabled', 'conditions', 'actions');

/**
 * `pull_request_rules` (queue-semantics §1.7): names unique, each action's options completed from
 * `defaults.actions`, queue actions pointing at a queue rule that exists.
 */
export function readPullRequestRules(
  value: unknown,
  at: Cursor,
  actionDefaults: ActionsConfiguration,
  queueRuleNames: ReadonlySet<string>,
): PullRequestRuleConfiguration[] | Invalid {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return at.fail('expected a list of pull request rules');
  if (value.length > MAX_PULL_REQUEST_RULES)
    return at.fail(`must have at most ${MAX_PULL_REQUEST_RULES} pull request rules, got ${value.length}`);
  const rules: PullRequestRuleConfiguration[] = [];
  const seen = new Map<string, number>();
  let valid = true;
  value.forEach((item, index) => {
    const ruleAt = at.at(index);
    const rule = readPullRequestRule(item, ruleAt, actionDefaults, queueRuleNames);
    if (rule === INVALID) {
      valid = false;
      return;
    }
    const first = seen.get(rule.name);
    if (first !== undefined) {
      ruleAt
        .at('name')
        .fail(`pull request rule name '${rule.name}' is already used by pull_request_rules[${first}]`);
      valid = false;
      return;
    }
    seen.set(rule.name, index);
    rules.push(rule);
  });
  return valid ? rules : INVALID;
}

function readPullRequestRule(
  value: unknown,
  at: Cursor,
  actionDefaults: ActionsConfiguration,
  queueRuleNames: ReadonlySet<string>,
): PullRequestRuleConfiguration | Invalid {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, KNOWN);
  const name = requiredField(mapping, at, 'name', stringReader);
  const description = field(mapping, at, 'description', nullable(stringReader), null);
  const disabledReason = field(mapping, at, 'disabled', readDisabled, null);
  const conditions = requiredField(mapping, at, 'conditions', readConditions);
  const own = requiredField(mapping, at, 'actions', readActions);
  if (anyInvalid(name, description, disabledReason, conditions, own) || at.findings.problems.length > before)
    return INVALID;

  const written = own as ActionsConfiguration;
  const actions: ActionsConfiguration = {};
  for (const action of Object.keys(written) as ActionName[])
    actions[action] = withActionDefaults(action, written[action] ?? {}, actionDefaults[action]);

  const actionsAt = at.at('actions');
  const queueName = actions.queue?.name;
  if (typeof queueName === 'string' && !queueRuleNames.has(queueName))
    actionsAt
      .at('queue')
      .at('name')
      .fail(
        queueRuleNames.size === 0
          ? `queue rule '${queueName}' does not exist: queue_rules is empty`
          : `queue rule '${queueName}' does not exist (queue rules: ${[...queueRuleNames].join(', ')})`,
      );
  if (at.findings.problems.length > before) return INVALID;
  return {
    name: name as string,
    description: description as string | null,
    disabledReason: disabledReason as string | null,
    conditions: conditions as PullRequestRuleConfiguration['conditions'],
    actions,
  };
}

function readDisabled(value: unknown, at: Cursor): string | null | Invalid {
  if (value === null) return null;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  refuseUnknownKeys(mapping, at, keys('reason'));
  return requiredField(mapping, at, 'reason', stringReader);
}
