import Ajv2020 from 'ajv/dist/2020';
import { CORE_SCHEMA, loadAll, mergeTag } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Mergify's own configuration schema (its docs repository, public/mergify-configuration-schema.json
 * at 905e4957, 2026-08-21; copied from shared/reference), compiled with ajv: the verdict a
 * migrating team gets from `mergify config validate`.
 */
export const MERGIFY_SCHEMA_DATE = new Date('2026-08-21T00:00:00Z');

const SCHEMA_FILE = join(__dirname, '../../test-fixtures/mergify-configuration-schema.json');

export const mergifySchema = (): Record<string, unknown> =>
  JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;

function compile() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // Mergify's own formats (templates, durations, Python regexes) are checked by its engine, not the schema.
  for (const format of ['template', 'simple-template', 'duration', 'regex']) ajv.addFormat(format, true);
  return ajv.compile(mergifySchema());
}

let validate: ReturnType<typeof compile> | null = null;

const YAML_SCHEMA = CORE_SCHEMA.withTags(mergeTag);

/**
 * The schema's verdict on a `.mergify.yml` text, read as Mergify's engine reads it: one YAML
 * document with `<<` merge keys (js-yaml), and an empty document (nothing, or comments only) taken
 * as `{}` ("Allow an empty file", mergify_engine get_mergify_config_from_file).
 */
export function schemaAccepts(text: string): { valid: boolean; errors: string[] } {
  validate ??= compile();
  let document: unknown;
  try {
    const documents = loadAll(text, { schema: YAML_SCHEMA });
    if (documents.length > 1) return { valid: false, errors: ['YAML: more than one document'] };
    document = documents[0] ?? {};
  } catch (error) {
    return { valid: false, errors: [`YAML: ${(error as Error).message.split('\n')[0]}`] };
  }
  const valid = validate(document);
  return {
    valid,
    errors: (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`),
  };
}
