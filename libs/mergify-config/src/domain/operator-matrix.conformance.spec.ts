import { MERGIFY_SCHEMA_DATE, mergifySchema, schemaAccepts } from '../testing/mergify-schema';
import { validateConfiguration } from './validate-configuration';

/**
 * Issue 35 scope 2, the operator matrix: for every attribute of Mergify's schema
 * (`$defs.PullRequestAttributes`) and every operator, a synthetic configuration with that one
 * condition. The schema itself accepts them all (a condition is a plain string to it); its
 * `x-allowed-operators` and `x-modifiers` metadata says which ones Mergify allows, and Switchyard
 * accepts exactly those, but for two readings the metadata leaves open (attributes.ts):
 * - `added-lines`, `modified-lines`, `deleted-lines`: the metadata lists every operator, the
 *   description says "only usable as `#added-lines`": `#` stays required;
 * - `#sender-permission`: allowed, read as `sender-permission` (a permission has no length).
 */
type Operator = '=' | '!=' | '~=' | '*=' | '>=' | '<=' | '<' | '>';
const OPERATORS: Operator[] = ['=', '!=', '~=', '*=', '>=', '<=', '<', '>'];

interface AttributeMetadata {
  'x-allowed-operators'?: Operator[];
  'x-modifiers'?: Array<{ type: 'negate' | 'length'; required?: boolean }>;
}

const attributes = Object.entries(
  (mergifySchema().$defs as Record<string, { properties: Record<string, AttributeMetadata> }>)
    .PullRequestAttributes!.properties,
);
/** Attributes the metadata says nothing about (no x-allowed-operators): `check`, `co-authors`. */
const described = attributes.filter(([, metadata]) => metadata['x-allowed-operators'] !== undefined);
const COUNTED_ONLY = new Set(['added-lines', 'modified-lines', 'deleted-lines']);
/** GitHub-derived: Mergify evaluates them itself; only shown in reports (queue-semantics §5.2). */
const INTERNAL = new Set([
  'github-require-review-from-specific-teams',
  'github-code-owner-review-satisfied',
  'github-review-approved',
  'github-require-last-push-approval',
]);
const COMMAND_ONLY = new Set(['sender', 'sender-permission']);
const TIME = new Set([
  'updated-at',
  'created-at',
  'closed-at',
  'merged-at',
  'queued-at',
  'queue-merge-started-at',
]);

/** A value of the right kind for the attribute and operator. */
function valueFor(attribute: string, operator: Operator): string {
  if (operator === '~=') return '^x';
  if (operator === '*=') return 'x*';
  if (attribute === 'number' || attribute === 'queue-position') return '1';
  if (TIME.has(attribute)) return '2026-01-01T00:00:00Z';
  if (attribute === 'current-datetime')
    return operator === '=' || operator === '!='
      ? '2026-01-01T00:00/2026-01-02T00:00'
      : '2026-01-01T00:00:00Z';
  if (attribute === 'schedule') return 'Mon-Fri 09:00-17:00';
  if (attribute === 'sender-permission') return 'write';
  if (attribute === 'github-review-decision') return 'APPROVED';
  if (attribute === 'queue-dequeue-reason') return 'checks-failed';
  return 'x';
}

/** One condition in a configuration where its attribute may be used. */
function configurationWith(attribute: string, condition: string): string {
  const quoted = JSON.stringify(condition);
  return COMMAND_ONLY.has(attribute)
    ? `commands_restrictions:\n  queue:\n    conditions:\n      - ${quoted}\n`
    : `pull_request_rules:\n  - name: one\n    conditions:\n      - ${quoted}\n    actions:\n      label:\n        add: [x]\n`;
}

const accepts = (attribute: string, condition: string): boolean => {
  const text = configurationWith(attribute, condition);
  expect(schemaAccepts(text).valid).toBe(true);
  return validateConfiguration(text, MERGIFY_SCHEMA_DATE).valid;
};

/** Usable only as `#name`: the metadata's `required` length, or the reading above. */
const countedOnly = (name: string, metadata: AttributeMetadata): boolean =>
  COUNTED_ONLY.has(name) ||
  (metadata['x-modifiers']?.some((m) => m.type === 'length' && m.required) ?? false);

const operatorCases = described
  .filter(([name]) => !INTERNAL.has(name))
  .flatMap(([name, metadata]) =>
    OPERATORS.map((operator): [string, Operator, boolean] => [
      name,
      operator,
      metadata['x-allowed-operators']!.includes(operator) && !countedOnly(name, metadata),
    ]),
  );

describe("the operator matrix of Mergify's schema", () => {
  it('covers every attribute the metadata describes', () => {
    expect(described.length).toBeGreaterThanOrEqual(70);
    expect(operatorCases.length).toBe((described.length - INTERNAL.size) * OPERATORS.length);
  });

  it.each(operatorCases)('%s %s: allowed %s', (attribute, operator, allowed) => {
    const operators = described.find(([name]) => name === attribute)![1]['x-allowed-operators']!;
    if (operators.length === 0) {
      // A Boolean: its bare name is the condition, and no operator is allowed.
      expect(accepts(attribute, attribute)).toBe(true);
      expect(accepts(attribute, `${attribute}${operator}x`)).toBe(false);
      return;
    }
    expect(accepts(attribute, `${attribute}${operator}${valueFor(attribute, operator)}`)).toBe(allowed);
  });

  it.each(described.filter(([name]) => !INTERNAL.has(name)))(
    '%s: the `-` and `#` modifiers',
    (attribute, metadata) => {
      const modifiers = new Set(metadata['x-modifiers']?.map((m) => m.type));
      const operators = metadata['x-allowed-operators']!;
      const plain =
        operators.length === 0
          ? attribute
          : `${attribute}${operators[0]}${valueFor(attribute, operators[0]!)}`;
      const hashed = attribute === 'sender-permission' ? `#${attribute}>=write` : `#${attribute}>=1`;
      const negatable = modifiers.has('negate');
      if (countedOnly(attribute, metadata)) expect(accepts(attribute, `-#${attribute}>=1`)).toBe(negatable);
      else expect(accepts(attribute, `-${plain}`)).toBe(negatable);
      expect(accepts(attribute, hashed)).toBe(modifiers.has('length'));
    },
  );
});
