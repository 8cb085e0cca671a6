import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MERGIFY_SCHEMA_DATE, schemaAccepts } from '../testing/mergify-schema';
import { validateConfiguration } from './validate-configuration';

/**
 * Issue 35 scope 2: every configuration fixture of the project is judged by Mergify's own schema
 * (ajv) and by Switchyard's validator, on the schema's day (2026-08-21, so removal dates are read
 * as the schema was written), and the two agree, except where a rule the schema cannot see
 * decides. Each such exception is listed with its source, and must still disagree (no stale entry).
 *
 * Fixtures: the 120 real files of the corpus (test-fixtures/mergify-configs, from
 * shared/reference), the configurations shown in README.md and docs/, and the forms the verdict
 * rule is about (removed keys, the 2018 `rules:` format, documents that are not mappings, a file
 * of comments only).
 */
const ROOT = join(__dirname, '../../../..');
const CORPUS = join(__dirname, '../../test-fixtures/mergify-configs');

interface Exception {
  /** Switchyard's verdict, where the schema says the opposite. */
  switchyard: 'valid' | 'invalid';
  reason: string;
  source: string;
}

const CONDITION_LANGUAGE = 'conditions are plain strings to the schema (RuleConditionModel: type string)';
const LINEAR_TIME = (feature: string): Exception => ({
  switchyard: 'invalid',
  reason: `a condition's regex uses ${feature}, which RE2 has not; Switchyard refuses it rather than match with a backtracking engine`,
  source: `issue 33 scope 3 (linear-time regexes); ${CONDITION_LANGUAGE}`,
});

const EXCEPTIONS: Record<string, Exception> = {
  'corpus/comit-network__comit-rs.yml': LINEAR_TIME('a lookahead'),
  'corpus/libp2p__rust-libp2p.yml': LINEAR_TIME('a backreference'),
  'corpus/milvus-io__milvus.yml': LINEAR_TIME('a lookahead'),
  'corpus/vyos__mergify.yml': LINEAR_TIME('a lookahead'),
  'synthetic/partition_rules': {
    switchyard: 'valid',
    reason: 'a file that still declares partition_rules is not rejected; the section is ignored',
    source:
      "Mergify docs merge-queue/migrate-partitions-to-scopes.mdx: 'A file that still declares them is not rejected, but Mergify ignores the section' (the schema has no partition_rules)",
  },
  'synthetic/unknown attribute': {
    switchyard: 'invalid',
    reason: 'an unknown attribute in a condition',
    source: `queue-semantics §5.1 (Invalid condition '…'. Invalid attribute); ${CONDITION_LANGUAGE}`,
  },
  'synthetic/operator the attribute does not allow': {
    switchyard: 'invalid',
    reason: '`number~=1`: `~=` is not in the x-allowed-operators of `number`',
    source: `the schema's own x-allowed-operators metadata, which JSON Schema validation does not apply; ${CONDITION_LANGUAGE}`,
  },
};

const SYNTHETIC: Record<string, string> = {
  'queue action options':
    'pull_request_rules:\n  - name: q\n    conditions: []\n    actions:\n      queue:\n        method: squash\n',
  'merge strict':
    'pull_request_rules:\n  - name: m\n    conditions: []\n    actions:\n      merge:\n        strict: true\n',
  'merge commit_message':
    'pull_request_rules:\n  - name: m\n    conditions: []\n    actions:\n      merge:\n        commit_message: title+body\n',
  'merge rebase_fallback':
    'pull_request_rules:\n  - name: m\n    conditions: []\n    actions:\n      merge:\n        rebase_fallback: none\n',
  speculative_checks: 'queue_rules:\n  - name: default\n    speculative_checks: 2\n',
  'queue-rule conditions': 'queue_rules:\n  - name: default\n    conditions:\n      - check-success=ci\n',
  'queue-rule routing_conditions':
    'queue_rules:\n  - name: default\n    routing_conditions:\n      - label=go\n',
  commit_message_template: "queue_rules:\n  - name: default\n    commit_message_template: '{{ title }}'\n",
  autoqueue: 'queue_rules:\n  - name: default\n    autoqueue: true\n',
  github_actions:
    'pull_request_rules:\n  - name: g\n    conditions: []\n    actions:\n      github_actions:\n        workflow:\n          dispatch:\n            - workflow: ci.yml\n',
  '2018 rules format':
    'rules:\n  default:\n    protection:\n      required_status_checks:\n        contexts: [ci]\n',
  partition_rules:
    'partition_rules:\n  - name: a\n    conditions: [files~=^a/]\nqueue_rules:\n  - name: default\n',
  'a list document': '- pull_request_rules: []\n',
  'a scalar document': 'just some text\n',
  'comments only': '# pull_request_rules:\n#   - name: nothing yet\n',
  'an empty file': '',
  'queue and merge in one rule':
    'pull_request_rules:\n  - name: both\n    conditions: []\n    actions:\n      queue:\n      merge:\n',
  'every operator on commits':
    'pull_request_rules:\n  - name: c\n    conditions:\n      - commits~=Feature\n      - commits=Fix\n      - "#commits>=1"\n    actions:\n      label:\n        add: [x]\n',
  'unknown attribute':
    'pull_request_rules:\n  - name: u\n    conditions:\n      - lable=x\n    actions:\n      label:\n        add: [x]\n',
  'operator the attribute does not allow':
    'pull_request_rules:\n  - name: n\n    conditions:\n      - number~=1\n    actions:\n      label:\n        add: [x]\n',
};

/**
 * The ```yaml blocks of README.md and docs/ that are configurations (a top-level Mergify key), and
 * the example files of docs/examples.
 */
function documentedConfigurations(): Record<string, string> {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((file) => join('docs', file))];
  const found: Record<string, string> = {};
  for (const file of files.filter((name) => name.endsWith('.md'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].forEach((block, index) => {
      if (
        /^(pull_request_rules|queue_rules|merge_queue|priority_rules|scopes|merge_protections|defaults):/m.test(
          block[1]!,
        )
      )
        found[`${file}#${index + 1}`] = block[1]!;
    });
  }
  const examples = join(ROOT, 'docs', 'examples');
  for (const file of readdirSync(examples).filter((name) => name.endsWith('.yml')))
    found[`examples/${file}`] = readFileSync(join(examples, file), 'utf8');
  return found;
}

const fixtures: Array<[string, string]> = [
  ...readdirSync(CORPUS)
    .filter((file) => file.endsWith('.yml'))
    .sort()
    .map((file): [string, string] => [`corpus/${file}`, readFileSync(join(CORPUS, file), 'utf8')]),
  ...Object.entries(documentedConfigurations()).map(([name, text]): [string, string] => [
    `docs/${name}`,
    text,
  ]),
  ...Object.entries(SYNTHETIC).map(([name, text]): [string, string] => [`synthetic/${name}`, text]),
];

describe("Switchyard's verdict against Mergify's schema (ajv)", () => {
  it('has the whole corpus and the documented configurations', () => {
    expect(fixtures.filter(([name]) => name.startsWith('corpus/')).length).toBeGreaterThanOrEqual(120);
    expect(fixtures.filter(([name]) => name.startsWith('docs/')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(fixtures)('%s', (name, text) => {
    const schema = schemaAccepts(text);
    const ours = validateConfiguration(text, MERGIFY_SCHEMA_DATE);
    const exception = EXCEPTIONS[name];
    const why = {
      schema: schema.errors.slice(0, 3),
      switchyard: ours.valid ? [] : ours.errors.slice(0, 3).map((e) => `${e.pathText}: ${e.message}`),
    };
    if (!exception) {
      expect({ verdict: ours.valid, why }).toEqual({ verdict: schema.valid, why: expect.anything() });
      return;
    }
    // A listed exception still disagrees, the way the list says.
    expect({ schema: schema.valid, switchyard: ours.valid }).toEqual({
      schema: exception.switchyard === 'invalid',
      switchyard: exception.switchyard === 'valid',
    });
  });

  it('lists only fixtures that exist', () => {
    const names = new Set(fixtures.map(([name]) => name));
    expect(Object.keys(EXCEPTIONS).filter((name) => !names.has(name))).toEqual([]);
  });
});
