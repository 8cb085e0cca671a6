import { pullRequestSnapshotFixture } from '../../conditions';
import { validateConfiguration } from '../validate-configuration';
import { simulatePullRequest } from './pull-request-simulation';

/** The day of issue 35: queue-rule `conditions` (removed 2026-07-31) is an error, `commit_message_template` too (2026-09-30). */
const TODAY = new Date('2026-11-28T00:00:00Z');

const configurationOf = (text: string) => {
  const result = validateConfiguration(text, TODAY);
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return result.configuration;
};

const CONFIGURATION = configurationOf(
  [
    'queue_rules:',
    '  - name: default',
    'pull_request_rules:',
    '  - name: queue approved',
    '    conditions:',
    '      - base=main',
    '      - "#approved-reviews-by>=1"',
    '    actions:',
    '      queue:',
    '  - name: label docs',
    '    conditions:',
    '      - files~=^docs/',
    '    actions:',
    '      label:',
    '        add: [docs]',
    '  - name: hotfix',
    '    conditions: [label=hotfix]',
    '    actions:',
    '      comment:',
    '        message: hotfix!',
  ].join('\n'),
);

const now = new Date('2026-05-03T10:00:00Z');

describe('simulatePullRequest', () => {
  it('shows the matching rules condition by condition and folds the others away', () => {
    const pullRequest = pullRequestSnapshotFixture({
      reviews: [
        { id: 1, author: 'bob', state: 'APPROVED', submittedAt: '2026-05-02T10:00:00Z', commitId: null },
      ],
      files: [
        { filename: 'docs/index.md', previousFilename: null, status: 'modified', additions: 1, deletions: 0 },
      ],
    });
    const simulation = simulatePullRequest(CONFIGURATION, { pullRequest, now });
    expect(simulation.title).toBe('2 rules match');
    expect(simulation.summary).toContain(
      '### Rule: queue approved (queue)\n- [X] `base=main`\n- [X] `#approved-reviews-by>=1`',
    );
    expect(simulation.summary).toContain('### Rule: label docs (label)\n- [X] `files~=^docs/`');
    expect(simulation.summary).toContain('<summary>1 not applicable rule</summary>');
    expect(simulation.summary).toContain('### Rule: hotfix (comment)\n- [ ] `label=hotfix`');
  });

  it('says when nothing matches', () => {
    const pullRequest = pullRequestSnapshotFixture({
      base: { ref: 'release', sha: 'b'.repeat(40), repositoryFullName: 'acme/rocket' },
    });
    expect(simulatePullRequest(CONFIGURATION, { pullRequest, now }).title).toBe(
      'no rules match, no planned actions',
    );
  });

  it('says when there are no rules, and when the pull request changes the configuration', () => {
    const pullRequest = pullRequestSnapshotFixture({
      files: [
        { filename: '.mergify.yml', previousFilename: null, status: 'modified', additions: 1, deletions: 0 },
      ],
    });
    expect(simulatePullRequest(configurationOf('queue_rules: []\n'), { pullRequest, now }).title).toBe(
      'Configuration changed. This pull request must be merged manually — no rules configured, just listening for commands',
    );
  });

  it('counts a rule whose condition cannot be judged as faulty', () => {
    const configuration = configurationOf(
      'pull_request_rules:\n  - name: teams\n    conditions: ["#review-threads-unresolved=0"]\n    actions:\n      label:\n        add: [ok]\n',
    );
    const simulation = simulatePullRequest(configuration, { pullRequest: pullRequestSnapshotFixture(), now });
    expect(simulation.title).toBe('1 faulty rule');
    expect(simulation.summary).toContain('⚠️');
  });
});
