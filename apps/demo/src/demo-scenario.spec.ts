import { expectedEnds, FULL_SCENARIO, SHORT_SCENARIO, type DemoChange } from './demo-scenario';

const numbered = (changes: readonly DemoChange[]) =>
  changes.map((change, index) => ({ number: index + 1, change }));
const byName = (name: string) => FULL_SCENARIO.find((change) => change.name === name)!;

describe('the demo scenario', () => {
  it('has, in each form, pull requests that merge, one failing CI and one textual conflict', () => {
    for (const scenario of [FULL_SCENARIO, SHORT_SCENARIO]) {
      const ends = scenario.map((change) => (change.expected.merged ? 'merged' : change.expected.because));
      expect(ends).toEqual(expect.arrayContaining(['merged', 'failing CI', 'textual conflict']));
      for (const change of scenario.filter((c) => c.rival))
        expect(scenario.map((c) => c.name)).toContain(change.rival);
    }
  });

  it('expects the ends as written when the queue takes rivals in the order they were opened', () => {
    const opened = numbered([
      byName('retitle-readme'),
      byName('broken-test'),
      byName('retitle-readme-again'),
    ]);
    const ends = expectedEnds(opened, [1, 2, 3]);
    expect([...ends.values()]).toEqual([
      { merged: true },
      { merged: false, because: 'failing CI' },
      { merged: false, because: 'textual conflict' },
    ]);
  });

  it('swaps the ends of two rivals when the queue took the second first', () => {
    const opened = numbered([byName('money-in-cents'), byName('add-gears'), byName('discounts-as-floats')]);
    const ends = expectedEnds(opened, [3, 2, 1]);
    expect(ends.get(1)).toEqual({ merged: false, because: 'semantic conflict' });
    expect(ends.get(2)).toEqual({ merged: true });
    expect(ends.get(3)).toEqual({ merged: true });
  });
});
