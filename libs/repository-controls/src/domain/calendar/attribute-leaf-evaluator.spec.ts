import { evaluateAttributeLeaf, UnsupportedConditionError } from './attribute-leaf-evaluator';

const pr = {
  base: 'main',
  label: ['hotfix', 'backend'],
  number: 42,
  draft: false,
  conflict: true,
  milestone: null,
};

describe('attribute leaf evaluator (stand-in until the condition parser)', () => {
  it.each([
    ['base=main', true],
    ['base = main', true],
    ['base="main"', true],
    ["base='main'", true],
    ['base=dev', false],
    ['base!=dev', true],
    ['-base=main', false],
    ['- base=dev', true],
    ['label=hotfix', true],
    ['label=frontend', false],
    ['label!=hotfix', false],
    ['label!=frontend', true],
    ['-label=hotfix', false],
    ['number=42', true],
    ['draft', false],
    ['-draft', true],
    ['conflict', true],
    ['milestone=v1', false],
    ['milestone!=v1', true],
    ['assignee=alice', false],
    ['assignee!=alice', true],
    ['locked', false],
  ])('%s is %s', (condition, expected) => expect(evaluateAttributeLeaf(condition, pr)).toBe(expected));

  it.each(['label~=^hot', '#label>=2', 'base', 'created-at<2026-01-01', ''])(
    'refuses %j rather than guessing',
    (condition) => expect(() => evaluateAttributeLeaf(condition, pr)).toThrow(UnsupportedConditionError),
  );
});
