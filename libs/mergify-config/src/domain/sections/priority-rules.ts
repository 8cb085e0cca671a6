import { readConditions } from '../schema/conditions-field';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import {
  DEFAULT_PRIORITY,
  PRIORITY_ALIASES,
  type PriorityRuleConfiguration,
} from '../schema/mergify-configuration';
import {
  anyInvalid,
  booleanReader,
  field,
  keys,
  readMapping,
  refuseUnknownKeys,
  requiredField,
  stringReader,
} from '../schema/readers';

export const MAX_PRIORITY_RULES = 50;
export const MIN_PRIORITY = 1;
export const MAX_PRIORITY = 10_000;

const KNOWN = keys('name', 'conditions', 'priority', 'allow_checks_interruption');

/** `priority_rules` (queue-semantics §1.4): first match in file order wins. */
export function readPriorityRules(value: unknown, at: Cursor): PriorityRuleConfiguration[] | Invalid {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return at.fail('expected a list of priority rules');
  if (value.length > MAX_PRIORITY_RULES)
    return at.fail(`must have at most ${MAX_PRIORITY_RULES} priority rules, got ${value.length}`);
  const rules: PriorityRuleConfiguration[] = [];
  let valid = true;
  value.forEach((item, index) => {
    const rule = readPriorityRule(item, at.at(index));
    if (rule === INVALID) valid = false;
    else rules.push(rule);
  });
  return valid ? rules : INVALID;
}

function readPriorityRule(value: unknown, at: Cursor): PriorityRuleConfiguration | Invalid {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, KNOWN);
  const name = requiredField(mapping, at, 'name', stringReader);
  const conditions = requiredField(mapping, at, 'conditions', readConditions);
  const priority = field(mapping, at, 'priority', readPriority, DEFAULT_PRIORITY);
  const allowChecksInterruption = field(mapping, at, 'allow_checks_interruption', booleanReader, false);
  if (anyInvalid(name, conditions, priority, allowChecksInterruption) || at.findings.problems.length > before)
    return INVALID;
  return { name, conditions, priority, allowChecksInterruption } as PriorityRuleConfiguration;
}

/** `low`/`medium`/`high` or an integer 1..10000. */
export function readPriority(value: unknown, at: Cursor): number | Invalid {
  if (typeof value === 'string' && Object.hasOwn(PRIORITY_ALIASES, value))
    return PRIORITY_ALIASES[value as keyof typeof PRIORITY_ALIASES];
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value < MIN_PRIORITY || value > MAX_PRIORITY)
      return at.fail(`must be between ${MIN_PRIORITY} and ${MAX_PRIORITY}, got ${value}`);
    return value;
  }
  return at.fail(
    `expected 'low', 'medium', 'high' or an integer between ${MIN_PRIORITY} and ${MAX_PRIORITY}`,
  );
}

/** The alias when the value is exactly one, else the number as text (the 2022 engine's display rule). */
export function priorityAlias(priority: number): string {
  for (const [alias, value] of Object.entries(PRIORITY_ALIASES)) if (value === priority) return alias;
  return String(priority);
}
