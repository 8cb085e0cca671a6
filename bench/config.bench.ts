import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORE_SCHEMA, dump, load, mergeTag } from 'js-yaml';
import { parse } from 'yaml';
import { validateConfiguration } from '@switchyard/mergify-config';
import { printMachine } from './eventstore/report';
import { median } from './logs/latency';

/**
 * bench:config — `.mergify.yml` validation (parse, schema, every condition through the condition
 * parser, positions for the deprecations) against two bare parses of the same text, to plain data
 * and nothing else, measured in alternating rounds:
 *  - `yaml`'s `parse` (the parser the validator used alone before, and still uses for anything
 *    the fast reading is unsure of, and for the rare positions js-yaml's events may not give alike);
 *  - js-yaml's `load` (the fast reading's floor).
 * Over:
 *  1. the 120-file corpus, each file once per round (most have deprecations, whose lines are found);
 *  2. a generated configuration of about 1 MB at the schema's limits (50 queue rules, 200 pull
 *     request rules of many conditions of every kind real files use, nearly all different, a few
 *     deprecated forms), valid, so every part of it is read. Goal: it validates in < 100 ms;
 *  3. the corpus's own rules, as many as a valid file may hold (about 85 KB: rules are short).
 * Each side is timed in CPU time (`process.cpuUsage`, user + system: what this process spent,
 * whatever else the shared machine runs) and in wall time; the ratios and the goal use CPU time.
 * BENCH_CONFIG_ROUNDS (default 5) rounds; the median is printed.
 */
const ROUNDS = Number(process.env.BENCH_CONFIG_ROUNDS ?? '5');
const CORPUS = join(__dirname, '../libs/mergify-config/test-fixtures/mergify-configs');
const GOAL_MS = 100;
/**
 * The day the verdicts are given for: before the 2026-07-31 removal of queue-rule `conditions`, so
 * the generated file's deprecated forms are still deprecations, the file stays valid and the
 * workload is the one measured before removed forms became errors.
 */
const AS_OF = new Date('2026-07-01T00:00:00Z');

/**
 * The kinds of conditions real files write (the corpus: labels, bases, checks, path regexes and
 * globs, review counts, teams, schedules, commits, or/not blocks), nearly all made unique to their
 * rule and place, so few are read from the memo of texts already parsed. YAML lines under a rule's
 * `conditions:`.
 */
const CONDITION_KINDS: Array<(rule: number, c: number) => string[]> = [
  (r, c) => [`- base=release/${r}.${c}`],
  (r, c) => [`- -label~=^(blocked|wip|do-not-merge-${r}-${c})$`],
  (r, c) => [`- check-success=build / test (${r}, ${c})`],
  (r, c) => [`- files~=(?i)^services/svc-${r}/module-${c}/.*\\.(py|ts)$`],
  (r, c) => [`- files*=docs/${r}/${c}/**/*.{md,rst}`],
  (_, c) => [`- "#approved-reviews-by>=${1 + (c % 3)}"`],
  (r, c) => [`- approved-reviews-by=@acme/reviewers-${r}-${c}`],
  (r, c) => [`- "#files<=${50 + r + c}"`],
  (r, c) => [`- -title~=^(WIP|Draft|Do not merge ${r}-${c})\\b`],
  (r, c) => [`- 'body~=(?m)^Fixes #${r}${c}\\b'`],
  (_, c) => [`- schedule=Mon-Fri 09:00-17:${String(c % 60).padStart(2, '0')}[Europe/Paris]`],
  (r, c) => [`- commits[*].author!=release-bot-${r}-${c}`],
  (r, c) => ['- or:', '    - author=dependabot[bot]', `    - head~=^renovate/svc-${r}-${c}/`],
  (r, c) => ['- not:', '    and:', `      - label=hold-${r}-${c}`, '      - -draft'],
];

/** What rules do, in turn: labels, a multi-line comment, assignment and reviews, backports, the queue. */
function ruleActions(rule: number): string[] {
  const lane = `lane-${rule % 50}`;
  switch (rule % 5) {
    case 0:
      return ['label:', `  add: [area/svc-${rule}, needs-review]`, '  remove: [stale]'];
    case 1:
      return [
        'comment:',
        '  message: |',
        `    Thanks @{{ author }}, this change touches svc-${rule}.`,
        '    A maintainer will review it; the checks must pass before it is queued.',
      ];
    case 2:
      return [
        'assign:',
        `  add_users: [owner-${rule}]`,
        'request_reviews:',
        `  teams: [reviewers-${rule % 20}]`,
      ];
    case 3:
      return ['backport:', `  branches: [release/${rule}.1, release/${rule}.2]`, '  labels: [backport]'];
    default:
      return ['queue:', `  name: ${lane}`];
  }
}

/**
 * About `targetBytes` of configuration at the schema's limits (50 queue rules, 200 pull request
 * rules), so each pull request rule holds many conditions: every kind above, and in one rule of
 * twenty a removed `status-success` name, and in one queue rule of ten the legacy `conditions` key,
 * deprecations whose lines must be found. Valid, so every part of it is read.
 */
function generatedConfiguration(targetBytes: number): string {
  const lines = [
    'merge_queue:',
    '  max_parallel_checks: 5',
    'queue_rules:',
    ...Array.from({ length: 50 }, (_, q) => [
      `  - name: lane-${q}`,
      '    queue_conditions:',
      `      - label=lane-${q}`,
      q % 10 === 0 ? '    conditions:' : '    merge_conditions:',
      '      - check-success=ci',
      `      - "#approved-reviews-by>=${(q % 3) + 1}"`,
      '    batch_size: 4',
      '    batch_max_wait_time: 2 min',
      `    checks_timeout: ${10 + q} min`,
    ]).flat(),
    'pull_request_rules:',
  ];
  let size = lines.join('\n').length;
  const perRule = Math.ceil((targetBytes - size) / 200);
  for (let rule = 0; rule < 200; rule += 1) {
    const ruleLines = [`  - name: rule ${rule}`, `    description: owners of svc-${rule}`, '    conditions:'];
    if (rule % 20 === 0) ruleLines.push(`      - status-success=legacy-ci-${rule}`);
    let ruleSize = 0;
    for (let c = 0; c < 100 && ruleSize < perRule - 300; c += 1) {
      const condition = CONDITION_KINDS[(rule + c) % CONDITION_KINDS.length](rule, c).map(
        (line) => `      ${line}`,
      );
      ruleLines.push(...condition);
      ruleSize += condition.join('\n').length;
    }
    ruleLines.push('    actions:', ...ruleActions(rule).map((line) => `      ${line}`));
    lines.push(...ruleLines);
    size += ruleLines.join('\n').length;
  }
  return `${lines.join('\n')}\n`;
}

const JS_YAML_SCHEMA = CORE_SCHEMA.withTags(mergeTag);

type Rule = Record<string, unknown>;
const rulesOf = (value: unknown, section: string): Rule[] => {
  const rules = (value as Record<string, unknown> | null)?.[section];
  return Array.isArray(rules) ? (rules as Rule[]) : [];
};

/** The schema's limits: a valid file cannot hold more rules than this. */
const MAX_QUEUE_RULES = 50;
const MAX_PULL_REQUEST_RULES = 200;

/**
 * As many real rules as a valid file may hold: the queue and pull request rules of every corpus
 * file the validator accepts, one chunk per file, chunks taken in turn (and again, renamed) while
 * they fit under the schema's limits. Each copy's rule names are made unique and its queue actions
 * follow their queue's new name; a chunk that is not valid on its own (it leaned on its file's
 * `defaults` or `merge_queue`) is left out. Real conditions, actions and options in real
 * proportions, and the deprecated forms real files still use, whose lines must be found.
 */
function corpusRulesConfiguration(corpus: string[]): string {
  const chunks = corpus.flatMap((text, file) => {
    if (!validateConfiguration(text, AS_OF).valid) return [];
    const value: unknown = parse(text, { merge: true });
    const queueRules = rulesOf(value, 'queue_rules');
    const pullRequestRules = rulesOf(value, 'pull_request_rules');
    if (queueRules.length + pullRequestRules.length === 0) return [];
    const chunk = (copy: number) => {
      const suffix = ` (file ${file}, copy ${copy})`;
      const queueName = (name: unknown) => `${String(name)}${suffix}`;
      return {
        queue_rules: queueRules.map((rule) => ({ ...rule, name: queueName(rule.name) })),
        pull_request_rules: pullRequestRules.map((rule) => {
          const actions = rule.actions as Record<string, unknown> | null | undefined;
          const queue = actions?.queue as Record<string, unknown> | null | undefined;
          const renamedQueue = queue?.name === undefined ? queue : { ...queue, name: queueName(queue.name) };
          return {
            ...rule,
            name: `${String(rule.name)}${suffix}`,
            ...(actions ? { actions: { ...actions, ...(queue ? { queue: renamedQueue } : {}) } } : {}),
          };
        }),
      };
    };
    return validateConfiguration(dump(chunk(0)), AS_OF).valid ? [chunk] : [];
  });
  const queueRules: Rule[] = [];
  const pullRequestRules: Rule[] = [];
  for (let copy = 0, added = true; added; copy += 1) {
    added = false;
    for (const chunk of chunks) {
      const { queue_rules, pull_request_rules } = chunk(copy);
      if (
        queueRules.length + queue_rules.length > MAX_QUEUE_RULES ||
        pullRequestRules.length + pull_request_rules.length > MAX_PULL_REQUEST_RULES
      )
        continue;
      queueRules.push(...queue_rules);
      pullRequestRules.push(...pull_request_rules);
      added = true;
    }
  }
  return dump({ queue_rules: queueRules, pull_request_rules: pullRequestRules });
}

/** Bare parses to plain data; the corpus files that are not YAML throw, counted like any other parse. */
const SIDES = {
  validate: (text: string) => void validateConfiguration(text, AS_OF),
  yaml: (text: string) => {
    try {
      parse(text, { merge: true });
    } catch {
      // counted
    }
  },
  jsYaml: (text: string) => {
    try {
      load(text, { schema: JS_YAML_SCHEMA });
    } catch {
      // counted
    }
  },
};
type Side = keyof typeof SIDES;

interface Timing {
  cpuMs: number;
  wallMs: number;
}

function time(work: () => void): Timing {
  const cpu = process.cpuUsage();
  const started = performance.now();
  work();
  const wallMs = performance.now() - started;
  const spent = process.cpuUsage(cpu);
  return { cpuMs: (spent.user + spent.system) / 1000, wallMs };
}

interface Row {
  label: string;
  sides: Record<Side, Timing>;
  /** The slowest single text's validation, CPU time: what the goal is about. */
  slowestValidateMs: number;
}

function measure(label: string, texts: string[]): Row {
  for (const text of texts) {
    const result = validateConfiguration(text, AS_OF);
    if (label !== 'corpus (all files)' && !result.valid)
      throw new Error(`generated file is invalid: ${JSON.stringify(result.errors.slice(0, 3))}`);
  }
  const samples: Record<Side, Timing[]> = { validate: [], yaml: [], jsYaml: [] };
  const sides = Object.keys(SIDES) as Side[];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate which side goes first, so a load spike does not always land on the same one.
    const order = sides.map((_, index) => sides[(index + round) % sides.length]);
    for (const side of order) samples[side].push(time(() => texts.forEach(SIDES[side])));
  }
  const slowest = texts.map((text) =>
    median(Array.from({ length: ROUNDS }, () => time(() => SIDES.validate(text)).cpuMs)),
  );
  const summary = (side: Side): Timing => ({
    cpuMs: median(samples[side].map((t) => t.cpuMs)),
    wallMs: median(samples[side].map((t) => t.wallMs)),
  });
  return {
    label,
    sides: { validate: summary('validate'), yaml: summary('yaml'), jsYaml: summary('jsYaml') },
    slowestValidateMs: Math.max(...slowest),
  };
}

function describeRules(text: string): string {
  const result = validateConfiguration(text, AS_OF);
  if (!result.valid) return 'invalid';
  const { queueRules, pullRequestRules } = result.configuration;
  return `${queueRules.length} queue rules, ${pullRequestRules.length} pull request rules, ${result.deprecations.length} deprecations located`;
}

function main(): void {
  const corpus = readdirSync(CORPUS)
    .filter((file) => file.endsWith('.yml'))
    .map((file) => readFileSync(join(CORPUS, file), 'utf8'));
  const generated = generatedConfiguration(1_000_000);
  const fromCorpus = corpusRulesConfiguration(corpus);
  printMachine([
    `rounds: ${ROUNDS} (median shown); corpus: ${corpus.length} files, ${corpus.reduce((n, t) => n + t.length, 0).toLocaleString('en-US')} characters`,
    `generated: ${generated.length.toLocaleString('en-US')} characters, ${describeRules(generated)}`,
    `corpus rules at the limits: ${fromCorpus.length.toLocaleString('en-US')} characters, ${describeRules(fromCorpus)}`,
  ]);
  const rows = [
    measure('corpus (all files)', corpus),
    measure('generated ~1 MB', [generated]),
    measure('corpus rules at the limits', [fromCorpus]),
  ];
  const ms = (value: number) => value.toFixed(1);
  const cell = (t: Timing) => `${ms(t.cpuMs)} (${ms(t.wallMs)})`;
  process.stdout.write(
    '\nCPU ms, wall ms in parentheses; ratios on CPU time\n' +
      `${'measurement'.padEnd(30)} ${'ours: validate'.padStart(18)} ${'yaml.parse'.padStart(18)} ${'js-yaml load'.padStart(18)} ${'ours/yaml'.padStart(10)} ${'ours/js-yaml'.padStart(13)}\n`,
  );
  for (const { label, sides } of rows)
    process.stdout.write(
      `${label.padEnd(30)} ${cell(sides.validate).padStart(18)} ${cell(sides.yaml).padStart(18)} ${cell(sides.jsYaml).padStart(18)} ${(sides.validate.cpuMs / sides.yaml.cpuMs).toFixed(2).padStart(10)} ${(sides.validate.cpuMs / sides.jsYaml.cpuMs).toFixed(2).padStart(13)}\n`,
    );
  process.stdout.write(
    `\ngoal: a configuration of up to 1 MB validates in < ${GOAL_MS} ms (CPU time, this machine)\n`,
  );
  for (const row of rows)
    process.stdout.write(
      `  ${row.label.padEnd(30)} slowest file ${ms(row.slowestValidateMs)} ms: ${row.slowestValidateMs < GOAL_MS ? 'met' : 'NOT met'}\n`,
    );
}

main();
