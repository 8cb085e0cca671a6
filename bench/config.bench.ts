import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { parse } from 'yaml';
import { validateConfiguration } from '@switchyard/config';
import { printMachine } from './eventstore/report';

/**
 * bench:config — `.mergify.yml` validation (parse, schema, every condition through the condition
 * parser, positions for the deprecations) against two bare parses of the same text, to plain data
 * and nothing else, measured in alternating rounds:
 *  - `yaml`'s `parse` (the parser the validator used alone before, and still uses for positions
 *    and for anything the fast reading is unsure of);
 *  - js-yaml's `load` (the fast reading's floor).
 * Over:
 *  1. the 120-file corpus, each file once per round;
 *  2. a generated configuration of about 1 MB (200 pull request rules of 100 conditions each, the
 *     schema's limits), valid, so every part of it is read. Goal: it validates in < 100 ms.
 * Each side is timed in CPU time (`process.cpuUsage`, user + system: what this process spent,
 * whatever else the shared machine runs) and in wall time; the ratios and the goal use CPU time.
 * BENCH_CONFIG_ROUNDS (default 5) rounds; the median is printed.
 */
const ROUNDS = Number(process.env.BENCH_CONFIG_ROUNDS ?? '5');
const CORPUS = join(__dirname, '../libs/config/test-fixtures/mergify-configs');
const GOAL_MS = 100;

function generatedConfiguration(targetBytes: number): string {
  const lines = [
    'merge_queue:',
    '  max_parallel_checks: 5',
    'queue_rules:',
    ...Array.from({ length: 50 }, (_, q) => [
      `  - name: lane-${q}`,
      '    queue_conditions:',
      `      - label=lane-${q}`,
      '    merge_conditions:',
      '      - check-success=ci',
      `      - "#approved-reviews-by>=${(q % 3) + 1}"`,
      '    batch_size: 4',
      '    batch_max_wait_time: 2 min',
    ]).flat(),
    'pull_request_rules:',
  ];
  let size = lines.join('\n').length;
  const perRule = Math.ceil((targetBytes - size) / 200);
  for (let rule = 0; rule < 200; rule += 1) {
    const ruleLines = [`  - name: rule ${rule}`, '    conditions:'];
    let ruleSize = 0;
    for (let c = 0; c < 100 && ruleSize < perRule - 200; c += 1) {
      const line = [
        `      - base=release/${rule}.${c}`,
        `      - -label~=^(blocked|wip|do-not-merge-${c})$`,
        `      - check-success=build / test (${rule}, ${c})`,
        '      - or:',
      ][c % 4];
      const extra =
        c % 4 === 3 ? ['          - author=dependabot[bot]', `          - files~=^docs/${c}/`] : [];
      for (const text of [line, ...extra]) ruleLines.push(text);
      ruleSize += [line, ...extra].join('\n').length;
    }
    ruleLines.push(
      '    actions:',
      '      label:',
      `        add: [rule-${rule}]`,
      '      queue:',
      `        name: lane-${rule % 50}`,
    );
    lines.push(...ruleLines);
    size += ruleLines.join('\n').length;
  }
  return `${lines.join('\n')}\n`;
}

const JS_YAML_SCHEMA = CORE_SCHEMA.withTags(mergeTag);

/** Bare parses to plain data; the corpus files that are not YAML throw, counted like any other parse. */
const SIDES = {
  validate: (text: string) => void validateConfiguration(text),
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
    const result = validateConfiguration(text);
    if (label.startsWith('generated') && !result.valid)
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

function main(): void {
  const corpus = readdirSync(CORPUS)
    .filter((file) => file.endsWith('.yml'))
    .map((file) => readFileSync(join(CORPUS, file), 'utf8'));
  const generated = generatedConfiguration(1_000_000);
  printMachine([
    `rounds: ${ROUNDS} (median shown); corpus: ${corpus.length} files, ${corpus.reduce((n, t) => n + t.length, 0).toLocaleString('en-US')} characters; generated: ${generated.length.toLocaleString('en-US')} characters`,
  ]);
  const rows = [measure('corpus (all files)', corpus), measure('generated ~1 MB', [generated])];
  const ms = (value: number) => value.toFixed(1);
  const cell = (t: Timing) => `${ms(t.cpuMs)} (${ms(t.wallMs)})`;
  process.stdout.write(
    '\nCPU ms, wall ms in parentheses; ratios on CPU time\n' +
      `${'measurement'.padEnd(20)} ${'ours: validate'.padStart(18)} ${'yaml.parse'.padStart(18)} ${'js-yaml load'.padStart(18)} ${'ours/yaml'.padStart(10)} ${'ours/js-yaml'.padStart(13)}\n`,
  );
  for (const { label, sides } of rows)
    process.stdout.write(
      `${label.padEnd(20)} ${cell(sides.validate).padStart(18)} ${cell(sides.yaml).padStart(18)} ${cell(sides.jsYaml).padStart(18)} ${(sides.validate.cpuMs / sides.yaml.cpuMs).toFixed(2).padStart(10)} ${(sides.validate.cpuMs / sides.jsYaml.cpuMs).toFixed(2).padStart(13)}\n`,
    );
  process.stdout.write(
    `\ngoal: a configuration of up to 1 MB validates in < ${GOAL_MS} ms (CPU time, this machine)\n`,
  );
  for (const row of rows)
    process.stdout.write(
      `  ${row.label.padEnd(20)} slowest file ${ms(row.slowestValidateMs)} ms: ${row.slowestValidateMs < GOAL_MS ? 'met' : 'NOT met'}\n`,
    );
}

main();
