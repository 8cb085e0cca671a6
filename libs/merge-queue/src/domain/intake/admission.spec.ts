import { validateConfiguration, type MergifyConfiguration } from '@switchyard/mergify-config';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions';
import { PRIORITY } from '../policy';
import { admit, matchingQueueAction, priorityFor, queueRuleFor, stillAdmissible } from './admission';

const NOW = new Date('2026-07-01T10:00:00Z');

function configurationOf(lines: string[]): MergifyConfiguration {
  const validation = validateConfiguration(lines.join('\n'), new Date('2026-11-28T00:00:00Z'));
  if (!validation.valid) throw new Error(`invalid test configuration: ${lines.join(' / ')}`);
  return validation.configuration;
}

const TWO_QUEUES = configurationOf([
  'queue_rules:',
  '  - name: hotfix',
  '    queue_conditions: [label=hotfix]',
  '  - name: default',
  '    queue_conditions: [-draft]',
  'priority_rules:',
  '  - name: urgent',
  '    conditions: [label=urgent]',
  '    priority: high',
  '    allow_checks_interruption: true',
  'pull_request_rules:',
  '  - name: disabled',
  '    disabled: {reason: paused for the migration}',
  '    conditions: [label=ready]',
  '    actions:',
  '      queue: {name: hotfix}',
  '  - name: ready',
  '    conditions: [label=ready]',
  '    actions:',
  '      queue:',
  '  - name: ready for hotfix',
  '    conditions: [label=ready]',
  '    actions:',
  '      queue: {name: hotfix}',
]);

const pr = (labels: string[]) => pullRequestSnapshotFixture({ labels });

describe('admission: which queue, which priority', () => {
  it('a named queue admits only if its own conditions match; unnamed, the first queue that matches', () => {
    expect(queueRuleFor(TWO_QUEUES, pr([]), NOW, 'hotfix')).toBeNull();
    expect(queueRuleFor(TWO_QUEUES, pr(['hotfix']), NOW, 'hotfix')?.name).toBe('hotfix');
    expect(queueRuleFor(TWO_QUEUES, pr([]), NOW, null)?.name).toBe('default');
    expect(queueRuleFor(TWO_QUEUES, pr(['hotfix']), NOW, null)?.name).toBe('hotfix');
    expect(queueRuleFor(TWO_QUEUES, pr([]), NOW, 'missing')).toBeNull();
  });

  it('the first enabled pull request rule with a queue action that matches decides', () => {
    expect(matchingQueueAction(TWO_QUEUES, pr(['ready']), NOW)).toEqual({
      ruleName: 'ready',
      queueName: null,
    });
    expect(matchingQueueAction(TWO_QUEUES, pr([]), NOW)).toBeNull();
  });

  it('priority from the first matching priority rule, medium otherwise', () => {
    expect(priorityFor(TWO_QUEUES, pr(['urgent']), NOW)).toEqual({
      priority: PRIORITY.high,
      priorityRuleName: 'urgent',
      allowCheckInterruption: true,
    });
    expect(priorityFor(null, pr(['urgent']), NOW)).toEqual({
      priority: PRIORITY.medium,
      priorityRuleName: null,
      allowCheckInterruption: false,
    });
  });

  it('by a rule: needs a configuration and a matching rule, and goes to the queue the rule names or the first that admits', () => {
    expect(admit(null, pr(['ready']), NOW, { kind: 'rule' }, 'default')).toBeNull();
    expect(admit(TWO_QUEUES, pr([]), NOW, { kind: 'rule' }, 'default')).toBeNull();
    expect(admit(TWO_QUEUES, pr(['ready', 'urgent']), NOW, { kind: 'rule' }, 'default')).toEqual({
      queueName: 'default',
      trigger: 'Rule: ready',
      priority: PRIORITY.high,
      priorityRuleName: 'urgent',
      allowCheckInterruption: true,
    });
    // Without queue rules, the implicit default queue takes what a rule sends it.
    const rulesOnly = configurationOf([
      'pull_request_rules:',
      '  - name: go',
      '    conditions: [label=ready]',
      '    actions:',
      '      queue:',
    ]);
    expect(admit(rulesOnly, pr(['ready']), NOW, { kind: 'rule' }, 'default')).toMatchObject({
      queueName: 'default',
      trigger: 'Rule: go',
    });
  });

  it('by a command: the named queue if it admits, any queue that admits otherwise; without a configuration, the default queue only', () => {
    const command = (requested: string | null) => ({
      kind: 'command' as const,
      requested,
      text: requested ? `queue ${requested}` : 'queue',
    });
    expect(admit(TWO_QUEUES, pr(['hotfix']), NOW, command('hotfix'), 'default')).toMatchObject({
      queueName: 'hotfix',
      trigger: 'Command: queue hotfix',
    });
    expect(admit(TWO_QUEUES, pr([]), NOW, command('hotfix'), 'default')).toBeNull();
    expect(admit(null, pr([]), NOW, command(null), 'default')).toMatchObject({ queueName: 'default' });
    expect(admit(null, pr([]), NOW, command('other'), 'default')).toBeNull();
  });

  it('a queued pull request stays while its queue’s conditions hold (a queue the configuration lost keeps it)', () => {
    expect(stillAdmissible(TWO_QUEUES, pr(['hotfix']), NOW, 'hotfix')).toBe(true);
    expect(stillAdmissible(TWO_QUEUES, pr([]), NOW, 'hotfix')).toBe(false);
    expect(stillAdmissible(TWO_QUEUES, pr([]), NOW, 'gone')).toBe(true);
    expect(stillAdmissible(null, pr([]), NOW, 'default')).toBe(true);
  });
});
