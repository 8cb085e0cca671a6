/**
 * What the demo does to its repository: the files main starts with, the `.mergify.yml` that
 * queues whatever carries the `ready` label, and the pull requests it opens. Each pull request
 * says how it should end, so the demo (and its test) can tell the queue did what it narrated.
 */

/** How a pull request leaves the queue. */
export type ExpectedEnd =
  | { readonly merged: true }
  | { readonly merged: false; readonly because: 'failing CI' | 'textual conflict' | 'semantic conflict' };

export interface DemoChange {
  /** The branch name. */
  readonly name: string;
  readonly title: string;
  /** Files the branch writes (whole contents). */
  readonly files: Readonly<Record<string, string>>;
  /** How it ends when the queue takes the pull requests in the order they were opened. */
  readonly expected: ExpectedEnd;
  /**
   * The change this one conflicts with (textually or semantically): of the two, whichever the
   * queue takes second is dequeued, and the queue need not take them in the order they were
   * labelled.
   */
  readonly rival?: string;
}

export const READY_LABEL = 'ready';
export const BATCH_SIZE = 3;

export const MERGIFY_YML = [
  'queue_rules:',
  '  - name: default',
  `    batch_size: ${BATCH_SIZE}`,
  '    batch_max_wait_time: 3 s',
  'merge_queue:',
  '  max_parallel_checks: 2',
  'pull_request_rules:',
  '  - name: automatic queue',
  '    conditions:',
  `      - label=${READY_LABEL}`,
  '    actions:',
  '      queue:',
  '',
].join('\n');

/** main's first commit, besides `.mergify.yml`. */
export const INITIAL_FILES: Readonly<Record<string, string>> = {
  'README.md': '# widgets\n\nA repository the Switchyard demo made.\n',
};

const merges: ExpectedEnd = { merged: true };

const gears: DemoChange = {
  name: 'add-gears',
  title: 'Add gears',
  files: { 'src/gears.txt': 'gears turn\n' },
  expected: merges,
};
const sprockets: DemoChange = {
  name: 'add-sprockets',
  title: 'Add sprockets',
  files: { 'src/sprockets.txt': 'sprockets spin\n' },
  expected: merges,
};
// The sandbox CI fails any tree holding this marker line.
const brokenTest: DemoChange = {
  name: 'broken-test',
  title: 'Add a test that fails',
  files: { 'test/wobble.test.txt': 'expects the wobble to stop\n# sandbox-ci: fail\n' },
  expected: { merged: false, because: 'failing CI' },
};
// Two pull requests that rewrite the same line of README.md: whichever the queue takes second
// cannot be merged on top of the first.
const retitle: DemoChange = {
  name: 'retitle-readme',
  title: 'Call them gadgets in the README',
  files: { 'README.md': '# gadgets\n\nA repository the Switchyard demo made.\n' },
  expected: merges,
};
const retitleAgain: DemoChange = {
  name: 'retitle-readme-again',
  title: 'Call them gizmos in the README',
  files: { 'README.md': '# gizmos\n\nA repository the Switchyard demo made.\n' },
  expected: { merged: false, because: 'textual conflict' },
  rival: retitle.name,
};
// A semantic conflict: each passes alone, a tree holding both fails (sandbox CI markers).
const centsProvider: DemoChange = {
  name: 'money-in-cents',
  title: 'Store prices in cents',
  files: { 'src/prices.txt': 'prices are integers, in cents\n# sandbox-ci: provides money-in-cents\n' },
  expected: merges,
};
const floatsConsumer: DemoChange = {
  name: 'discounts-as-floats',
  title: 'Compute discounts on float prices',
  files: {
    'src/discounts.txt': 'discounts multiply a float price\n# sandbox-ci: conflicts-with money-in-cents\n',
  },
  expected: { merged: false, because: 'semantic conflict' },
  rival: centsProvider.name,
};
const docs: DemoChange = {
  name: 'document-gears',
  title: 'Document the gears',
  files: { 'docs/gears.md': '# Gears\n\nThey turn.\n' },
  expected: merges,
};

/** In the order they are opened and labelled. */
export const FULL_SCENARIO: readonly DemoChange[] = [
  gears,
  sprockets,
  brokenTest,
  retitle,
  centsProvider,
  docs,
  retitleAgain,
  floatsConsumer,
];

/** For CI: one of each ending. */
export const SHORT_SCENARIO: readonly DemoChange[] = [gears, brokenTest, retitle, retitleAgain];

/**
 * The end each pull request should reach given the order the pull requests entered the queue:
 * a change and its rival swap ends when the rival entered first.
 */
export function expectedEnds(
  pullRequests: readonly { number: number; change: DemoChange }[],
  entryOrder: readonly number[],
): Map<number, ExpectedEnd> {
  const ends = new Map(pullRequests.map(({ number, change }) => [number, change.expected]));
  const position = (number: number) => {
    const index = entryOrder.indexOf(number);
    return index === -1 ? Infinity : index;
  };
  for (const { number, change } of pullRequests) {
    const rival = pullRequests.find((other) => other.change.name === change.rival);
    if (!rival || position(number) > position(rival.number)) continue;
    ends.set(number, rival.change.expected);
    ends.set(rival.number, change.expected);
  }
  return ends;
}
