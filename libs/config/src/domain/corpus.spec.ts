import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfiguration } from './validate-configuration';

/**
 * Every real configuration of the corpus (libs/config/test-fixtures/mergify-configs, copied from
 * the research material with its INDEX.tsv) goes through the validator, and the verdict matches the
 * index: files marked `invalid?` are rejected with an error at the right place, the others accepted.
 */
const CORPUS = join(__dirname, '../../test-fixtures/mergify-configs');

const index = new Map(
  readFileSync(join(CORPUS, 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [file, , , , features] = line.split('\t');
      return [file, features] as const;
    }),
);

/** Where the index is right that a file is invalid: the first error names this path. */
const REJECTED_AT: Record<string, string> = {
  'Activiti__Activiti.yml': 'pull_request_rules[0].actions.queue.strict',
  'Agoric__documentation.yml': 'pull_request_rules[0].actions.queue.name',
  'Mergifyio__git-pull-request.yml': 'pull_request_rules[3].name',
  'celo-org__celo-monorepo.yml': 'pull_request_rules[0].actions.queue.name',
  'cometbft__cometbft.yml': 'pull_request_rules[0].actions.merge.rebase_fallback',
  'cosmos__gaia.yml': 'pull_request_rules[0].actions',
  'dydxprotocol__v4-chain.yml': '(root)',
  'jd__mergify-engine.yml': 'pull_request_rules[1].conditions',
  'projen__projen.yml': 'pull_request_rules[0].actions',
};

/** Conditions' regexes run on RE2, which has neither lookaround nor backreferences (issue 33). */
const LINEAR_TIME_REGEXES = (feature: string) =>
  `a condition's regex uses a ${feature}, which the linear-time engine (RE2) refuses; Python's backtracking engine accepts it`;

/** Files where this validator disagrees with the index, and why. */
const DISAGREEMENTS: Record<string, { verdict: 'valid' | 'invalid'; reason: string }> = {
  'aws-powertools__powertools-lambda-python.yml': {
    verdict: 'valid',
    reason:
      'a file of comments only is an empty configuration; queue-semantics §1.1 says an empty file is allowed',
  },
  'jd__test.yml': {
    verdict: 'valid',
    reason:
      '`routing_conditions` is deprecated, not unknown: queue-semantics §8.2 lists it with a 2026-07-31 deadline, so it is read as `queue_conditions` and reported as a deprecation, like `conditions`',
  },
  'livastic-vm3-mergify-lab-0911__vm3-skip-intermediate-fixchain-20260918.yml': {
    verdict: 'valid',
    reason:
      '`queue_conditions: true` is allowed: the schema accepts `true` for every conditions field (queue-semantics §5.1)',
  },
  'spinnaker__deck.yml': {
    verdict: 'valid',
    reason: '`author:spinnakerbot` uses `:`, an alias of `=` (queue-semantics §5.1)',
  },
  'aws__aws-cdk.yml': {
    verdict: 'invalid',
    reason:
      'two pull request rules are named `automatic merge`; rule names are unique (queue-semantics §1.7), as the index itself says for Mergifyio__git-pull-request.yml',
  },
  'ceph__ceph-csi.yml': {
    verdict: 'invalid',
    reason:
      'a multi-line double-quoted `message` whose continuation lines are not indented past their key is invalid YAML 1.2; PyYAML tolerates it, `yaml` does not',
  },
  'comit-network__comit-rs.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('lookahead'),
  },
  'libp2p__rust-libp2p.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('backreference'),
  },
  'milvus-io__milvus.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('lookahead'),
  },
  'mozilla-mobile__fenix.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('lookahead'),
  },
  'mozilla-mobile__firefox-ios.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('lookahead'),
  },
  'osbuild__osbuild.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('backreference'),
  },
  'rlworkgroup__garage.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('lookahead'),
  },
  'vyos__mergify.yml': {
    verdict: 'invalid',
    reason: LINEAR_TIME_REGEXES('lookahead'),
  },
};

const files = readdirSync(CORPUS)
  .filter((file) => file.endsWith('.yml'))
  .sort();

describe('the configuration corpus', () => {
  it('has an index entry for every file', () => {
    expect(files.length).toBeGreaterThanOrEqual(120);
    for (const file of files) expect(index.has(file)).toBe(true);
  });

  it.each(files)('%s', (file) => {
    const indexSaysInvalid = /invalid\?/.test(index.get(file) ?? '');
    const disagreement = DISAGREEMENTS[file];
    const expectedValid = disagreement ? disagreement.verdict === 'valid' : !indexSaysInvalid;
    if (disagreement) expect(disagreement.verdict === 'valid').toBe(indexSaysInvalid);

    const result = validateConfiguration(readFileSync(join(CORPUS, file), 'utf8'));
    if (expectedValid) {
      expect(result.valid ? [] : result.errors).toEqual([]);
      return;
    }
    expect(result.valid).toBe(false);
    if (result.valid) return;
    for (const error of result.errors) expect(error.position?.line).toBeGreaterThan(0);
    const expectedPath = REJECTED_AT[file];
    if (expectedPath) expect(result.errors.map((e) => e.pathText)).toContain(expectedPath);
  });

  it('reports the deprecated forms it accepts, with a deadline and a path', () => {
    const result = validateConfiguration(readFileSync(join(CORPUS, 'Agoric__agoric-sdk.yml'), 'utf8'));
    expect(result.valid).toBe(true);
    if (!result.valid) return;
    expect(result.deprecations.length).toBeGreaterThan(0);
    for (const deprecation of result.deprecations) {
      expect(deprecation.deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(deprecation.path).not.toBeNull();
      expect(deprecation.position?.line).toBeGreaterThan(0);
    }
  });
});
