import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import type { ActionsConfiguration } from '../schema/mergify-configuration';
import { keys, readMapping, refuseUnknownKeys } from '../schema/readers';
import { readActions } from './actions';
import { type QueueRuleFields, readQueueRuleFields } from './queue-rule-fields';

export interface ConfigurationDefaults {
  queueRule: QueueRuleFields;
  actions: ActionsConfiguration;
}

const NO_DEFAULTS: ConfigurationDefaults = { queueRule: {}, actions: {} };

/** `defaults.queue_rule` and `defaults.actions`: fallbacks that a rule's own keys override. */
export function readDefaults(value: unknown, at: Cursor): ConfigurationDefaults | Invalid {
  if (value === undefined || value === null) return NO_DEFAULTS;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, keys('actions', 'queue_rule'));
  const queueRule =
    mapping.queue_rule === undefined || mapping.queue_rule === null
      ? { fields: {} }
      : readQueueRuleFields(mapping.queue_rule, at.at('queue_rule'), false);
  const actions =
    mapping.actions === undefined || mapping.actions === null
      ? {}
      : readActions(mapping.actions, at.at('actions'));
  if (queueRule === INVALID || actions === INVALID || at.findings.problems.length > before) return INVALID;
  return { queueRule: queueRule.fields, actions };
}
