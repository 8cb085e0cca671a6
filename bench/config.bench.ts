import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import { validateConfiguration } from '@switchyard/config';
import { printMachine } from './eventstore/report';

/**
 * bench:config — `.mergify.yml` validation (parse, schema, every condition through the condition
 * parser) against the bare `yaml` parse of the same text, measured in alternating rounds:
 *  1. the 120-file corpus, each file once per round;
 *  2. a generated configuration of about 1 MB (200 pull request rules of 100 conditions each, the
 *     schema's limits), valid, so every part of it is read. Goal: it validates in < 100 ms.
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

/** The baseline: `yaml`'s own parse to plain data; the two corpus files that are not YAML throw. */
function bareParse(text: string): void {
  try {
    parse(text, { merge: true });
  } catch {
    // counted like any other parse
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function time(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

function measure(label: string, texts: string[]): { label: string; validateMs: number; parseMs: number } {
  for (const text of texts) {
    const result = validateConfiguration(text);
    if (label.startsWith('generated') && !result.valid)
      throw new Error(`generated file is invalid: ${JSON.stringify(result.errors.slice(0, 3))}`);
  }
  const validate: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which side goes first, so a load spike does not always land on the same one.
    const order = round % 2 === 0 ? ['validate', 'parse'] : ['parse', 'validate'];
    for (const side of order) {
      if (side === 'validate')
        validate.push(time(() => texts.forEach((text) => validateConfiguration(text))));
      else bare.push(time(() => texts.forEach(bareParse)));
    }
  }
  return { label, validateMs: median(validate), parseMs: median(bare) };
}

function main(): void {
  const corpus = readdirSync(CORPUS)
    .filter((file) => file.endsWith('.yml'))
    .map((file) => readFileSync(join(CORPUS, file), 'utf8'));
  const generated = generatedConfiguration(1_000_000);
  printMachine([
    `rounds: ${ROUNDS} (median shown); corpus: ${corpus.length} files, ${corpus.reduce((n, t) => n + t.length, 0).toLocaleString('en-US')} characters; generated: ${generated.length.toLocaleString('en-US')} characters`,
  ]);
  const rows = [
    measure('corpus (all files)', corpus),
    measure('generated ~1 MB', generated ? [generated] : []),
  ];
  process.stdout.write('\nmeasurement            validate ms   bare yaml.parse ms   validate / parse\n');
  for (const row of rows)
    process.stdout.write(
      `${row.label.padEnd(22)} ${row.validateMs.toFixed(1).padStart(11)} ${row.parseMs.toFixed(1).padStart(20)} ${(row.validateMs / row.parseMs).toFixed(2).padStart(18)}\n`,
    );
  const big = rows[1];
  process.stdout.write(
    `\ngoal: a 1 MB configuration validates in < ${GOAL_MS} ms: ${big.validateMs < GOAL_MS ? 'met' : 'NOT met'} (${big.validateMs.toFixed(1)} ms; the bare parse alone takes ${big.parseMs.toFixed(1)} ms)\n`,
  );
}

main();
