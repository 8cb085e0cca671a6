import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { unstorableCharacterProblem } from '@switchyard/kernel';
import { isRepositoryFullName, isStorableDateTime } from '@switchyard/code-host';
import type { IntakeEventName } from './intake-reads';
import type { CutSchema } from './published-schema-cut';
import cut from './intake-schemas.json';

/** GitHub's longest text fields (pull-request and comment bodies) hold 65,536 characters. */
export const MAX_DELIVERY_TEXT = 65_536;
/** Pull and issue numbers are PostgreSQL integers in the read models. */
const MAX_NUMBER = 2_147_483_647;

export type DeliveryCheck = { ok: true } | { ok: false; field: string; problem: string };

/**
 * The door of the webhook intake: each delivery the intake records is checked against GitHub's
 * published schema cut down to what the intake reads (intake-schemas.json), with what the intake
 * needs of each value on top: text every store can hold (no NUL, no lone surrogate, at most
 * 65,536 characters), instants as RFC 3339 date-times in years 1 to 9999, ids in JavaScript's safe
 * integer range, pull numbers in PostgreSQL's integer range, and repositories named as GitHub
 * names them. Compiled once per process.
 */
export class DeliverySchemas {
  private readonly validators: ReadonlyMap<string, ValidateFunction>;

  constructor() {
    const ajv = new Ajv({ allErrors: false, verbose: true, strict: true });
    ajv.addFormat('storable-text', (text: string) => unstorableCharacterProblem(text) === null);
    ajv.addFormat('storable-instant', isStorableDateTime);
    ajv.addFormat('repository-full-name', isRepositoryFullName);
    this.validators = new Map(
      Object.entries(cut.events as Record<IntakeEventName, CutSchema>).map(([event, schema]) => [
        event,
        ajv.compile(doorSchema(schema)),
      ]),
    );
  }

  /** Whether a delivery of `eventName` may be read; events the intake does not read pass. */
  check(eventName: string, payload: unknown): DeliveryCheck {
    const validate = this.validators.get(eventName);
    if (!validate || validate(payload)) return { ok: true };
    return describe(validate.errors![0]!);
  }
}

function doorSchema(schema: CutSchema): object {
  const types = schema.type ?? [];
  const rules: Record<string, unknown> = schema.type ? { type: schema.type } : {};
  if (types.includes('string')) {
    rules.maxLength = MAX_DELIVERY_TEXT;
    rules.format =
      schema.read === 'instant'
        ? 'storable-instant'
        : schema.read === 'full_name'
          ? 'repository-full-name'
          : 'storable-text';
  }
  if (types.includes('integer') || types.includes('number')) {
    const pullNumber = schema.read === 'number';
    rules.minimum = pullNumber ? 1 : 0;
    rules.maximum = pullNumber ? MAX_NUMBER : Number.MAX_SAFE_INTEGER;
  }
  if (schema.properties) {
    rules.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([field, property]) => [field, doorSchema(property)]),
    );
    if (schema.required) rules.required = schema.required;
  }
  if (schema.items) rules.items = doorSchema(schema.items);
  return rules;
}

const FORMAT_PROBLEMS: Record<string, string> = {
  'storable-instant': 'must be an RFC 3339 date-time between years 1 and 9999',
  'repository-full-name': 'must be `owner/name` as GitHub names repositories',
};

function describe(error: ErrorObject): { ok: false; field: string; problem: string } {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { ok: false, field: base ? `${base}.${missing}` : missing, problem: 'is required' };
  }
  const field = base || '(the body)';
  switch (error.keyword) {
    case 'type':
      return {
        ok: false,
        field,
        problem: `must be ${[(error.params as { type: string | string[] }).type].flat().join(' or ')}`,
      };
    case 'format': {
      const format = (error.params as { format: string }).format;
      const problem =
        format === 'storable-text'
          ? (unstorableCharacterProblem(String(error.data))?.message ?? 'cannot be stored')
          : (FORMAT_PROBLEMS[format] ?? `must be ${format}`);
      return { ok: false, field, problem };
    }
    case 'maxLength':
      return { ok: false, field, problem: `must be at most ${MAX_DELIVERY_TEXT} characters` };
    case 'minimum':
    case 'maximum': {
      const { minimum, maximum } = error.parentSchema as { minimum: number; maximum: number };
      return { ok: false, field, problem: `must be between ${minimum} and ${maximum}` };
    }
    default:
      return { ok: false, field, problem: error.message ?? 'is not as GitHub sends it' };
  }
}
