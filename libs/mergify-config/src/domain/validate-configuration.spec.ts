import { validateConfiguration } from './validate-configuration';

/** The day of issue 35: queue-rule `conditions` (removed 2026-07-31) is an error, `commit_message_template` too (2026-09-30). */
const TODAY = new Date('2026-11-28T00:00:00Z');

const valid = (text: string) => {
  const result = validateConfiguration(text, TODAY);
  if (!result.valid) throw new Error(`expected valid, got ${JSON.stringify(result.errors)}`);
  return result;
};

const errorsOf = (text: string) => {
  const result = validateConfiguration(text, TODAY);
  if (result.valid) throw new Error('expected the configuration to be rejected');
  return result.errors.map((e) => ({ path: e.pathText, line: e.position?.line, message: e.message }));
};

describe('validateConfiguration', () => {
  it('applies every queue-rule default (queue-semantics §1.2)', () => {
    const [rule] = valid('queue_rules:\n  - name: default\n').configuration.queueRules;
    expect(rule.queueConditions.source).toEqual([]);
    expect(rule.mergeConditions.tree).toMatchObject({ kind: 'and', children: [] });
    expect(rule).toEqual({
      name: 'default',
      queueConditions: expect.anything(),
      mergeConditions: expect.anything(),
      branchProtectionInjectionMode: 'queue',
      batchSize: { min: 1, max: 1 },
      batchSizeIsRange: false,
      batchMaxWaitTimeSeconds: 30,
      checksTimeout: { kind: 'auto' },
      maxChecksRetries: 0,
      draftBotAccount: null,
      queueBranchPrefix: 'mergify/merge-queue/',
      allowQueueBranchEdit: false,
      batchMaxFailureResolutionAttempts: null,
      mergeMethod: null,
      updateMethod: null,
      commitMessageTemplate: null,
      commitMessageFormat: null,
      mergeBotAccount: null,
      updateBotAccount: null,
      allowInplaceChecks: true,
      autosquash: false,
      autoqueue: false,
    });
  });

  it('reads the merge queue, priority and scope defaults', () => {
    const { configuration } = valid('');
    expect(configuration.mergeQueue).toMatchObject({
      maxParallelChecks: 5,
      mode: 'serial',
      queuedLabel: 'queued',
      dequeuedLabel: 'dequeued',
    });
    expect(configuration.scopes.mergeQueueScope).toBe('merge-queue');
    expect(configuration.commandsRestrictions.queue.source).toEqual(['sender-permission >= write']);
  });

  it('takes values from defaults.queue_rule unless the rule sets them', () => {
    const { configuration } = valid(
      [
        'defaults:',
        '  queue_rule:',
        '    batch_size: 4',
        '    batch_max_wait_time: 5 min',
        'queue_rules:',
        '  - name: fast',
        '    batch_size: 8',
        '  - name: slow',
      ].join('\n'),
    );
    expect(configuration.queueRules.map((r) => [r.name, r.batchSize.max, r.batchMaxWaitTimeSeconds])).toEqual(
      [
        ['fast', 8, 300],
        ['slow', 4, 300],
      ],
    );
  });

  it('fills action options from defaults.actions, then built-in defaults', () => {
    const { configuration } = valid(
      [
        'defaults:',
        '  actions:',
        '    backport:',
        '      assignees: ["{{ author }}"]',
        'pull_request_rules:',
        '  - name: backport',
        '    conditions: [label=backport]',
        '    actions:',
        '      backport:',
        '        branches: [stable]',
      ].join('\n'),
    );
    expect(configuration.pullRequestRules[0].actions.backport).toMatchObject({
      branches: ['stable'],
      assignees: ['{{ author }}'],
      ignore_conflicts: true,
      label_conflicts: 'conflicts',
    });
  });

  it('resolves anchors and merge keys, from shared or anywhere', () => {
    const { configuration } = valid(
      [
        'shared:',
        '  ci: &ci',
        '    - check-success=build',
        '  queue_base: &queue_base',
        '    batch_size: 3',
        '    merge_conditions: *ci',
        'queue_rules:',
        '  - name: default',
        '    <<: *queue_base',
        '    batch_size: 5',
      ].join('\n'),
    );
    expect(configuration.queueRules[0]).toMatchObject({
      batchSize: { min: 5, max: 5 },
      mergeConditions: { source: ['check-success=build'] },
    });
  });

  it('points at the anchor text when a merged value is wrong', () => {
    expect(
      errorsOf(
        [
          'shared:',
          '  base: &base',
          '    batch_size: 0',
          'queue_rules:',
          '  - name: default',
          '    <<: *base',
        ].join('\n'),
      ),
    ).toEqual([{ path: 'queue_rules[0].batch_size', line: 3, message: 'must be between 1 and 128, got 0' }]);
  });

  it.each([
    [
      'queue_rules:\n  - name: a\n    batch_size: 129\n',
      'queue_rules[0].batch_size',
      3,
      'must be between 1 and 128, got 129',
    ],
    [
      'queue_rules:\n  - name: a\n    batch_size: {min: 4, max: 2}\n',
      'queue_rules[0].batch_size.min',
      3,
      'min (4) cannot be greater than max (2)',
    ],
    [
      'queue_rules:\n  - name: a\n    checks_timeout: 30 s\n',
      'queue_rules[0].checks_timeout',
      3,
      "must be at least 60 seconds, 'auto' or null (got 30 seconds)",
    ],
    [
      'queue_rules:\n  - name: a\n    batch_max_wait_time: soon\n',
      'queue_rules[0].batch_max_wait_time',
      3,
      "'soon' is not a duration such as '30 seconds', '5 min' or '1 h 30 m'",
    ],
    [
      'queue_rules:\n  - name: a\n  - name: a\n',
      'queue_rules[1].name',
      3,
      "queue rule name 'a' is already used by queue_rules[0]",
    ],
    ['queue_rules:\n  - name: a\n    colour: red\n', 'queue_rules[0].colour', 3, "unknown key 'colour'"],
    [
      'queue_rules:\n  - name: a\n    merge_method: merge-batch\n',
      'queue_rules[0].merge_method',
      3,
      "merge_method 'merge-batch' needs a batch_size greater than 1",
    ],
    [
      'queue_rules:\n  - name: a\n    allow_queue_branch_edit: true\n',
      'queue_rules[0].allow_queue_branch_edit',
      3,
      "allow_queue_branch_edit needs merge_method set to 'merge-batch' or 'fast-forward'",
    ],
    [
      'merge_queue:\n  mode: parallel\nqueue_rules:\n  - name: a\n    merge_method: fast-forward\n',
      'queue_rules[0].merge_method',
      5,
      "merge_method 'fast-forward' is not supported in parallel mode (merge_queue.mode)",
    ],
    [
      'merge_queue:\n  max_parallel_checks: 0\n',
      'merge_queue.max_parallel_checks',
      2,
      'must be between 1 and 128, got 0',
    ],
    [
      'merge_queue:\n  mode: isolated\n  skip_intermediate_results: true\n',
      'merge_queue.skip_intermediate_results',
      3,
      "skip_intermediate_results is not supported in 'isolated' mode",
    ],
    [
      'priority_rules:\n  - name: hot\n    conditions: [label=hot]\n    priority: 20000\n',
      'priority_rules[0].priority',
      4,
      'must be between 1 and 10000, got 20000',
    ],
    [
      'scopes:\n  source:\n    files:\n      x: {include: ["a/**"]}\n',
      'scopes.source.files.x',
      4,
      "invalid scope name 'x': letters, digits, '_' and '-', at least 2 characters",
    ],
    [
      'scopes:\n  source:\n    files:\n      api: {include: ["{a,b"]}\n',
      'scopes.source.files.api.include[0]',
      4,
      "invalid glob '{a,b': '{' without a matching '}'",
    ],
    [
      'scopes:\n  source: {manual: null}\n  capacities: {api: 2}\n',
      'scopes.capacities',
      3,
      "scope capacities cannot be set on a 'serial' merge queue (merge_queue.mode)",
    ],
    [
      'pull_request_rules:\n  - name: r\n    conditions: []\n    actions:\n      explode: {}\n',
      'pull_request_rules[0].actions.explode',
      5,
      "unknown action 'explode'",
    ],
    [
      'pull_request_rules:\n  - name: r\n    conditions: []\n    actions:\n      label:\n        add: foo\n',
      'pull_request_rules[0].actions.label.add',
      6,
      'expected a list, got a string',
    ],
    [
      'pull_request_rules:\n  - name: r\n    conditions: []\n    actions:\n      queue:\n        name: nowhere\n',
      'pull_request_rules[0].actions.queue.name',
      6,
      "queue rule 'nowhere' does not exist: queue_rules is empty",
    ],
    [
      'pull_request_rules:\n  - name: r\n    actions: {}\n',
      'pull_request_rules[0].conditions',
      2,
      'required key is missing',
    ],
    [
      'pull_request_rules:\n  - name: r\n    conditions: [{xor: [a, b]}]\n    actions: {}\n',
      'pull_request_rules[0].conditions[0]',
      3,
      'A condition block has exactly one of the keys and, or, not',
    ],
    [
      'merge_protections_settings:\n  auto_merge_conditions: false\n',
      'merge_protections_settings.auto_merge_conditions',
      2,
      'expected true, a list of conditions or null (false is not accepted: omit the key)',
    ],
    [
      'commands_restrictions:\n  merge:\n    conditions: []\n',
      'commands_restrictions.merge',
      2,
      "unknown key 'merge'",
    ],
    ['pull_requests_rules: []\n', 'pull_requests_rules', 1, "unknown key 'pull_requests_rules'"],
    ['- just a list\n', '(root)', 1, 'the configuration must be a mapping of sections'],
  ])('refuses %j at %s, line %d', (text, path, line, message) => {
    expect(errorsOf(text)).toContainEqual({ path, line, message });
  });

  it('lists every error, in the order of the text', () => {
    const errors = errorsOf('merge_queue:\n  mode: fast\nqueue_rules:\n  - name: a\n    batch_size: 0\n');
    expect(errors.map((e) => e.line)).toEqual([2, 5]);
  });

  it('reports YAML syntax errors with their line', () => {
    const [error] = errorsOf('queue_rules:\n  - name: a\n   batch_size: 2\n');
    expect(error.path).toBe('(root)');
    expect(error.line).toBeGreaterThan(1);
    expect(error.message).toMatch(/^Invalid YAML: /);
  });

  it('refuses duplicate keys rather than letting the last one win', () => {
    expect(errorsOf('merge_queue: {}\nmerge_queue: {}\n')[0].message).toMatch(/unique/);
  });

  it('reads deprecated spellings and says so, with the deadline, until their removal date', () => {
    const before = validateConfiguration(
      'queue_rules:\n  - name: a\n    conditions:\n      - check-success=ci\n',
      new Date('2026-07-30T12:00:00Z'),
    );
    expect(before.valid).toBe(true);
    if (!before.valid) return;
    expect(before.configuration.queueRules[0]!.mergeConditions.source).toEqual(['check-success=ci']);
    expect(before.deprecations.map((d) => [d.path, d.deadline, d.position?.line])).toEqual([
      [['queue_rules', 0, 'conditions'], '2026-07-31', 3],
    ]);
  });

  // Issue 35: a key past its removal date is an error with its line and column, what replaced it
  // and the date it was removed; a key deprecated but not yet removed stays a deprecation.
  it('calls a key past its removal date an error: line, column, replacement and date', () => {
    expect(errorsOf('queue_rules:\n  - name: a\n    conditions:\n      - check-success=ci\n')).toEqual([
      {
        path: 'queue_rules[0].conditions',
        line: 3,
        message: expect.stringMatching(
          /^removed from Mergify's configuration on 2026-07-31\. .*replaced by `merge_conditions`/,
        ),
      },
    ]);
    const result = validateConfiguration('queue_rules:\n  - name: a\n    conditions: []\n', TODAY);
    expect(result.valid ? [] : result.errors.map((error) => error.position)).toEqual([
      { line: 3, column: 5 },
    ]);
  });

  it('turns commit_message_template from a deprecation into an error on 2026-09-30', () => {
    const text = "queue_rules:\n  - name: a\n    commit_message_template: '{{ title }}'\n";
    const before = validateConfiguration(text, new Date('2026-09-29T23:59:59Z'));
    expect(before.valid && before.deprecations.map((d) => d.deadline)).toEqual(['2026-09-30']);
    expect(errorsOf(text)).toEqual([
      expect.objectContaining({
        path: 'queue_rules[0].commit_message_template',
        message: expect.stringMatching(/on 2026-09-30\. .*commit_message_format/),
      }),
    ]);
  });

  it('keeps a deprecation whose removal date has not come (github_actions, 2027-03-31)', () => {
    const result = valid(
      'pull_request_rules:\n  - name: g\n    conditions: []\n    actions:\n      github_actions:\n        workflow:\n          dispatch:\n            - workflow: ci.yml\n',
    );
    expect(result.deprecations.map((d) => d.deadline)).toEqual(['2027-03-31']);
  });

  it('calls a key gone from the schema with no published date an error, and says so', () => {
    expect(errorsOf('queue_rules:\n  - name: a\n    speculative_checks: 2\n')).toEqual([
      {
        path: 'queue_rules[0].speculative_checks',
        line: 3,
        message: expect.stringMatching(
          /^removed from Mergify's configuration \(no removal date was published/,
        ),
      },
    ]);
  });

  it.each([
    [
      'the queue action options (2025-06-24)',
      'pull_request_rules:\n  - name: q\n    conditions: []\n    actions:\n      queue:\n        method: squash\n',
      'pull_request_rules[0].actions.queue.method',
      '2025-06-24',
    ],
    [
      'merge strict (2022-01-12)',
      'pull_request_rules:\n  - name: m\n    conditions: []\n    actions:\n      merge:\n        strict: true\n',
      'pull_request_rules[0].actions.merge.strict',
      '2022-01-12',
    ],
    [
      'merge commit_message (2022-04-25)',
      'pull_request_rules:\n  - name: m\n    conditions: []\n    actions:\n      merge:\n        commit_message: title+body\n',
      'pull_request_rules[0].actions.merge.commit_message',
      '2022-04-25',
    ],
  ])('refuses %s', (_, text, path, date) =>
    expect(errorsOf(text)).toEqual([
      expect.objectContaining({ path, message: expect.stringContaining(`on ${date}.`) }),
    ]),
  );

  it('refuses the 2018 `rules:` format and a document that is not a mapping', () => {
    expect(errorsOf('rules:\n  default:\n    protection: {}\n')).toEqual([
      expect.objectContaining({
        path: 'rules',
        line: 1,
        message: expect.stringContaining('pull_request_rules'),
      }),
    ]);
    expect(errorsOf('- pull_request_rules: []\n')).toEqual([
      expect.objectContaining({ message: 'the configuration must be a mapping of sections' }),
    ]);
    expect(errorsOf('just text\n')).toEqual([
      expect.objectContaining({ message: 'the configuration must be a mapping of sections' }),
    ]);
  });

  it('reads a file of comments only as an empty configuration, as Mergify does, and says so', () => {
    const result = valid('# pull_request_rules:\n#   - name: later\n');
    expect(result.configuration.pullRequestRules).toEqual([]);
    expect(result.unapplied).toEqual([
      expect.objectContaining({
        message: 'the file holds no settings: it is read as an empty configuration',
      }),
    ]);
  });

  it('accepts a rule with both the queue and the merge action (no source forbids it)', () => {
    const result = valid(
      'pull_request_rules:\n  - name: both\n    conditions: []\n    actions:\n      queue:\n      merge:\n',
    );
    expect(Object.keys(result.configuration.pullRequestRules[0]!.actions)).toEqual(['queue', 'merge']);
  });

  it('refuses an old and a new spelling of the same key together', () => {
    expect(
      errorsOf('queue_rules:\n  - name: a\n    conditions: []\n    merge_conditions: []\n')[0],
    ).toMatchObject({
      path: 'queue_rules[0].conditions',
    });
  });

  it('says plainly that extends is not applied', () => {
    const result = valid('extends: acme/.github\n');
    expect(result.unapplied).toEqual([
      expect.objectContaining({
        pathText: 'extends',
        position: { line: 1, column: 1 },
        message: expect.stringContaining('not applied'),
      }),
    ]);
  });

  it('reads a fast-forward written the old way', () => {
    const result = valid('queue_rules:\n  - name: a\n    queue_branch_merge_method: fast-forward\n');
    expect(result.configuration.queueRules[0].mergeMethod).toBe('fast-forward');
    expect(result.deprecations[0].path).toEqual(['queue_rules', 0, 'queue_branch_merge_method']);
  });

  it('refuses a condition the condition language does not know, at its own path', () => {
    expect(
      errorsOf(
        'queue_rules:\n  - name: a\n    merge_conditions:\n      - or:\n          - label=x\n          - colour=red\n',
      ),
    ).toEqual([expect.objectContaining({ path: 'queue_rules[0].merge_conditions[0].or[1]', line: 6 })]);
  });

  it('reads the 2022 status-* attributes as check-* and reports each as deprecated', () => {
    const result = valid(
      'pull_request_rules:\n  - name: r\n    conditions:\n      - -status-success=ci\n    actions: {}\n',
    );
    const [rule] = result.configuration.pullRequestRules;
    expect(rule.conditions.source).toEqual(['-status-success=ci']);
    expect(rule.conditions.tree).toMatchObject({ children: [{ attribute: 'check-success', negated: true }] });
    expect(result.deprecations).toEqual([
      expect.objectContaining({
        path: ['pull_request_rules', 0, 'conditions', 0],
        deadline: '2023-10-25',
        position: { line: 4, column: 9 },
      }),
    ]);
  });

  it('reads a priority alias or number', () => {
    const { configuration } = valid(
      'priority_rules:\n  - name: hot\n    conditions: [label=hot]\n    priority: high\n  - name: n\n    conditions: true\n    priority: 2500\n  - name: d\n    conditions: true\n',
    );
    expect(configuration.priorityRules.map((r) => r.priority)).toEqual([3000, 2500, 2000]);
  });
});

describe('validateConfiguration on hostile documents', () => {
  it.each([
    [
      'a cycle through conditions',
      'pull_request_rules:\n  - name: r\n    conditions: &c [{and: *c}]\n    actions: {}\n',
    ],
    ['a cycle through a queue rule list', 'queue_rules: &q [*q]\n'],
    ['a cycle in shared', 'shared: &a {b: *a}\n'],
    [
      'an alias bomb',
      `a: &a [x, x]\n${Array.from({ length: 30 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i || ''}, *a${i || ''}]`).join('\n')}\n`,
    ],
  ])('answers without crashing: %s', (_label, text) => {
    expect(() => validateConfiguration(text, TODAY)).not.toThrow();
  });
});
