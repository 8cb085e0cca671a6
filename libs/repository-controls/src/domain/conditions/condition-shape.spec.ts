import { MAX_CONDITION_NESTING } from '@switchyard/mergify-config/conditions';
import { conditionListProblems, conditionProblems } from './condition-shape';

describe('freeze condition lists', () => {
  it.each([
    [[]],
    [['base=main', 'label!=skip']],
    [[{ and: ['base=main', { or: ['label=a', 'label=b'] }] }]],
    [[{ not: 'draft' }, { not: { or: ['author=a', 'author=b'] } }]],
    [['#approved-reviews-by>=2', 'files*=src/**', 'schedule=Mon-Fri 09:00-17:00[Europe/Paris]']],
  ])('accepts %j', (value) => expect(conditionListProblems(value)).toEqual([]));

  it.each([
    ['a string instead of a list', 'base=main', []],
    ['null', null, []],
    ['true (a freeze lists its conditions)', true, []],
    ['an empty condition', ['base=main', '  '], [1]],
    ['a misspelt attribute', ['lable=x'], [0]],
    ['an operator the attribute refuses', ['created-at=2026-01-01'], [0]],
    ['a number', [42], [0]],
    ['an unknown group key', [{ xor: ['a'] }], [0]],
    ['two group keys', [{ and: ['base=main'], or: ['base=main'] }], [0]],
    ['an empty object', [{}], [0]],
    ['and that is not a list', [{ and: 'base=main' }], [0, 'and']],
    ['an empty or', [{ or: [] }], [0, 'or']],
    ['not holding a list', [{ not: ['draft'] }], [0, 'not']],
    ['a nested bad leaf', [{ and: ['base=main', { not: 'base' }] }], [0, 'and', 1, 'not']],
  ])('refuses %s, pointing at the offending element', (_, value, path) => {
    const [problem] = conditionListProblems(value);
    expect(problem?.path).toEqual(path);
  });

  it('gives the condition language’s own message', () =>
    expect(conditionListProblems(['base=main', { or: ['lable=x'] }])).toEqual([
      { path: [1, 'or', 0], message: "Invalid condition 'lable=x'. Invalid attribute" },
    ]));

  it('reports every problem, not just the first', () =>
    expect(conditionListProblems(['', 'base=main', 7]).map((problem) => problem.path)).toEqual([[0], [2]]));

  it('refuses strings no store can hold, once, before judging their syntax', () =>
    expect(conditionListProblems(['base=main', { not: 'label=a\u0000b' }])).toEqual([
      { path: [1, 'not'], message: expect.stringMatching(/^A condition /) },
    ]));

  it('refuses more than 500 items in one list', () => {
    expect(conditionListProblems(Array.from({ length: 500 }, (_, i) => `label=${i}`))).toEqual([]);
    expect(
      conditionListProblems([{ or: Array.from({ length: 501 }, (_, i) => `label=${i}`) }])[0]?.path,
    ).toEqual([0, 'or']);
  });

  it(`refuses blocks nested deeper than ${MAX_CONDITION_NESTING} levels`, () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'base=main' : { and: [nest(levels - 1)] });
    expect(conditionListProblems([nest(MAX_CONDITION_NESTING)])).toEqual([]);
    expect(conditionListProblems([nest(MAX_CONDITION_NESTING + 1)])[0]?.message).toMatch(/at most 8 levels/);
  });

  it('judges one element of a list on its own', () => {
    expect(conditionProblems('base=main')).toEqual([]);
    expect(conditionProblems({ or: ['base=main', 'lable=x'] })).toEqual([
      { path: ['or', 1], message: "Invalid condition 'lable=x'. Invalid attribute" },
    ]);
    expect(conditionProblems(['base=main'])[0]?.message).toMatch(/^A condition is a string/);
  });
});
