import { configurationProblems, deprecatedField, positionOf } from './simulator-view-model';

describe('configuration simulator page', () => {
  it("reads each 422 issue's path, line and column from its ctx", () => {
    const problems = configurationProblems({
      detail: [
        {
          type: 'mergify_config_error',
          loc: ['body', 'mergify_yml'],
          msg: 'queue_rules[0].batch_size (line 3, column 5): must be between 1 and 128, got 500',
          ctx: { path: 'queue_rules[0].batch_size', line: 3, column: 5 },
        },
        { type: 'missing', loc: ['body', 'mergify_yml'], msg: 'Field required' },
      ],
    });
    expect(problems).toEqual([
      {
        path: 'queue_rules[0].batch_size',
        line: 3,
        column: 5,
        message: 'queue_rules[0].batch_size (line 3, column 5): must be between 1 and 128, got 500',
      },
      { path: '', line: null, column: null, message: 'Field required' },
    ]);
    expect(positionOf(problems[0])).toBe('line 3, column 5');
    expect(positionOf(problems[1])).toBe('');
  });

  it('reads no problems from a detail that is not a list', () => {
    expect(configurationProblems({ detail: 'Forbidden' })).toEqual([]);
    expect(configurationProblems(undefined)).toEqual([]);
  });

  it("names a deprecation's field with list indexes in brackets", () => {
    expect(
      deprecatedField({
        message: 'm',
        deadline: '2026-07-31',
        path_to_field: ['queue_rules', '1', 'conditions'],
      }),
    ).toBe('queue_rules[1].conditions');
    expect(deprecatedField({ message: 'm', deadline: '2026-07-31', path_to_field: null })).toBeNull();
  });
});
