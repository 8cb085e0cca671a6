import { conditionListProblems, MAX_CONDITION_DEPTH, type LeafSyntax } from './condition-shape';

describe('condition list shape', () => {
  it.each([
    [[]],
    [['base=main', 'label!=skip']],
    [[{ and: ['base=main', { or: ['label=a', 'label=b'] }] }]],
    [[{ not: 'draft' }, { not: { or: ['author=a', 'author=b'] } }]],
  ])('accepts %j', (value) => expect(conditionListProblems(value)).toEqual([]));

  it.each([
    ['a string instead of a list', 'base=main', []],
    ['null', null, []],
    ['an empty condition', ['base=main', '  '], [1]],
    ['a number', [42], [0]],
    ['an unknown group key', [{ xor: ['a', 'b'] }], [0]],
    ['two group keys', [{ and: ['a'], or: ['b'] }], [0]],
    ['an empty object', [{}], [0]],
    ['and that is not a list', [{ and: 'base=main' }], [0, 'and']],
    ['an empty or', [{ or: [] }], [0, 'or']],
    ['not holding a list', [{ not: ['a'] }], [0, 'not']],
    ['a nested empty leaf', [{ and: ['a', { not: '' }] }], [0, 'and', 1, 'not']],
  ])('refuses %s, pointing at the offending element', (_, value, path) => {
    const [problem] = conditionListProblems(value);
    expect(problem?.path).toEqual(path);
  });

  it('reports every problem, not just the first', () =>
    expect(conditionListProblems(['', 'ok', 7]).map((problem) => problem.path)).toEqual([[0], [2]]));

  it('refuses more than 500 items in one list', () => {
    expect(conditionListProblems(Array.from({ length: 500 }, (_, i) => `label=${i}`))).toEqual([]);
    expect(
      conditionListProblems([{ or: Array.from({ length: 501 }, (_, i) => `label=${i}`) }])[0]?.path,
    ).toEqual([0, 'or']);
  });

  it(`refuses groups nested deeper than ${MAX_CONDITION_DEPTH} levels`, () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'base=main' : { not: nest(levels - 1) });
    expect(conditionListProblems([nest(MAX_CONDITION_DEPTH - 1)])).toEqual([]);
    expect(conditionListProblems([nest(MAX_CONDITION_DEPTH)])[0]?.message).toMatch(/at most 8 levels/);
  });

  it('lets the condition parser judge leaves once it exists', () => {
    const onlyBase: LeafSyntax = (condition) =>
      condition.startsWith('base') ? null : `Invalid condition '${condition}'. Invalid attribute`;
    expect(conditionListProblems(['base=main', { or: ['lable=x'] }], onlyBase)).toEqual([
      { path: [1, 'or', 0], message: "Invalid condition 'lable=x'. Invalid attribute" },
    ]);
  });
});
