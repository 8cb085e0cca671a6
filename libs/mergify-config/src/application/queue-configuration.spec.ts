import { queueRuleJson } from '../json/queue-rule.json';
import { ConfigurationRejectedError } from './configuration-rejected.error';
import { queueRulesInForce } from './queue-configuration';
import type { RepositoryConfigurationSource } from './repository-configuration-source';

const sourceOf = (files: Record<string, string>): RepositoryConfigurationSource => ({
  read: async (owner, repository) => {
    const content = files[`${owner}/${repository}`];
    return content === undefined ? null : { path: '.mergify.yml', content };
  },
});

const TODAY = new Date('2026-11-28T00:00:00Z');

describe('queueRulesInForce', () => {
  const source = sourceOf({
    'acme/app': [
      'queue_rules:',
      '  - name: hotfix',
      '    batch_size: {min: 2, max: 6}',
      '    checks_timeout: 1 h',
      '    merge_method: fast-forward',
      '  - name: default',
      '    checks_timeout: null',
    ].join('\n'),
    'acme/broken': 'queue_rules:\n  - name: a\n    batch_size: 0\n',
  });

  it('answers the rules in processing order, as the legacy QueueRule shape', async () => {
    const { rules } = await queueRulesInForce(source, 'acme', 'app', TODAY);
    expect(rules.map((rule, index) => queueRuleJson(rule, index, rules.length))).toEqual([
      {
        name: 'hotfix',
        config: {
          priority: 2,
          batch_size: { min: 2, max: 6 },
          batch_max_wait_time: 30,
          allow_inplace_checks: true,
          allow_queue_branch_edit: false,
          checks_timeout: 3600,
          draft_bot_account: null,
          queue_branch_prefix: 'mergify/merge-queue/',
          queue_branch_merge_method: 'fast-forward',
          batch_max_failure_resolution_attempts: null,
          commit_message_template: null,
          merge_bot_account: null,
          merge_method: 'fast-forward',
          update_bot_account: null,
          update_method: 'rebase',
          autosquash: false,
        },
      },
      expect.objectContaining({
        name: 'default',
        config: expect.objectContaining({
          priority: 1,
          batch_size: 1,
          checks_timeout: null,
          update_method: 'merge',
        }),
      }),
    ]);
  });

  it('answers no rules for a repository without a configuration file', async () => {
    expect(await queueRulesInForce(source, 'acme', 'none', TODAY)).toEqual({ path: null, rules: [] });
  });

  it('refuses an invalid file with its problems', async () => {
    const refusal = await queueRulesInForce(source, 'acme', 'broken', TODAY).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigurationRejectedError);
    expect((refusal as ConfigurationRejectedError).problems).toEqual([
      expect.objectContaining({ pathText: 'queue_rules[0].batch_size', position: { line: 3, column: 5 } }),
    ]);
  });
});
