import { render } from 'preact-render-to-string';
import type { ConditionEvaluationJson, LogEventJson, PullRequestDetailJson } from '../api-types';
import { dequeueReasonOf, timelineOf } from '../queue-view-model';
import { DequeueReasonBanner, QueuePlace, Timeline } from './pull-request-story';

const NOW = Date.parse('2026-03-02T10:30:00Z');

const event = (
  id: number,
  minute: number,
  type: string,
  metadata: Record<string, unknown>,
  outcome: LogEventJson['outcome'] = 'neutral',
): LogEventJson => ({
  id,
  received_at: `2026-03-02T10:${String(minute).padStart(2, '0')}:00Z`,
  trigger: 'merge queue',
  pull_request: 42,
  base_ref: 'main',
  outcome,
  type,
  metadata,
});

/** #42's story as the activity log tells it: queued by command, checked with #41, failed, dequeued. */
const story: LogEventJson[] = [
  event(1, 0, 'command.queue', {
    author: { id: 7, login: 'ada' },
    trigger_comment_url: 'https://github.com/acme/shop/pull/42#issuecomment-9',
  }),
  event(2, 1, 'action.queue.enter', { queue_name: 'default' }, 'success'),
  event(3, 2, 'action.queue.checks_start', {
    queue_name: 'default',
    pull_request_numbers: [41, 42],
    speculative_check_pull_request: { number: 101, in_place: false },
  }),
  event(
    4,
    14,
    'action.queue.checks_end',
    {
      aborted: true,
      abort_code: 'CHECKS_FAILED',
      abort_reason: null,
      queue_name: 'default',
      pull_request_numbers: [41, 42],
      speculative_check_pull_request: {
        number: 101,
        in_place: false,
        checks_conclusion: 'failure',
        unsuccessful_checks: [
          { name: 'ci/unit', url: 'https://ci.acme.test/runs/5501' },
          { name: 'ci/lint', url: null },
        ],
      },
    },
    'failure',
  ),
  event(5, 15, 'action.queue.leave', { reason: 'ci/unit failed', merged: false }, 'failure'),
];

describe('the timeline', () => {
  const html = render(<Timeline steps={timelineOf(story)} />);
  const entries = html.split(/(?=<li )/).slice(1);
  const text = (markup: string) => markup.replace(/<[^>]+>/g, '');

  it('tells each step in order, as a list marked with its outcome', () => {
    expect(html).toMatch(/^<ol class="timeline">/);
    expect(entries.map((entry) => /^<li class="([^"]+)"/.exec(entry)?.[1])).toEqual([
      'outcome-neutral',
      'outcome-success',
      'outcome-neutral',
      'outcome-failure',
      'outcome-failure',
    ]);
    expect(entries.map((entry) => /<strong>(.*?)<\/strong>/.exec(entry)?.[1])).toEqual([
      '@queue command',
      'Entered the default queue',
      'Queue checks started',
      'Queue checks ended early',
      'Left the queue',
    ]);
  });

  it('dates each step with a machine-readable time', () => {
    expect(entries[3]).toContain(
      `<time datetime="2026-03-02T10:14:00Z">${new Date('2026-03-02T10:14:00Z').toLocaleString()}</time>`,
    );
  });

  it("gives each step's detail: who queued it, where its checks ran, why they ended", () => {
    expect(text(entries[0])).toContain('— by ada');
    expect(text(entries[2])).toContain('— On draft #101, batch #41, #42');
    expect(text(entries[3])).toContain('— Its checks failed.');
    expect(text(entries[4])).toContain('— ci/unit failed');
  });

  it('links to the comment and to the failing checks that have an address', () => {
    expect(entries[0]).toContain(
      '<a href="https://github.com/acme/shop/pull/42#issuecomment-9" rel="noreferrer">The comment</a>',
    );
    expect(entries[3]).toContain(
      '<a href="https://ci.acme.test/runs/5501" rel="noreferrer">Failing check: ci/unit</a>',
    );
    expect(entries[3]).not.toContain('ci/lint');
  });
});

describe('the dequeue reason', () => {
  it('says in plain words why the pull request left without merging, as a status', () => {
    expect(render(<DequeueReasonBanner reason={dequeueReasonOf(story)} />)).toBe(
      '<p class="banner banner-dequeued" role="status" data-testid="dequeue-reason">' +
        'Left the queue without merging. Its checks failed. (ci/unit failed)</p>',
    );
  });

  it('shows nothing for a pull request that merged', () => {
    const merged = [
      ...story.slice(0, 3),
      event(6, 20, 'action.queue.merged', { queue_name: 'default' }, 'success'),
      event(7, 20, 'action.queue.leave', { reason: 'merged', merged: true }, 'success'),
    ];
    expect(render(<DequeueReasonBanner reason={dequeueReasonOf(merged)} />)).toBe('');
  });
});

describe("a queued pull request's place and merge conditions", () => {
  const condition = (
    label: string,
    match: boolean,
    subconditions: ConditionEvaluationJson[] = [],
    description: string | null = null,
  ): ConditionEvaluationJson => ({ label, match, description, subconditions });
  const queued: PullRequestDetailJson = {
    number: 42,
    queued_at: '2026-03-02T10:01:00Z',
    estimated_time_of_merge: '2026-03-02T11:00:00Z',
    position: 2,
    priority_rule_name: 'hotfix',
    queue_rule_name: 'default',
    mergeability_check: {
      check_type: 'draft_pr',
      queue_pull_request_number: 101,
      ci_state: 'pending',
      state: 'pending',
      checks: [],
      conditions_evaluation: condition('all of', false, [
        condition('check-success=ci/unit', true, [], 'The unit tests passed'),
        condition('#approved-reviews-by>=2', false),
      ]),
    },
  };
  const html = render(<QueuePlace queued={queued} now={NOW} />);

  it('gives its position counted from one, its rules, estimated merge and where its checks run', () => {
    const facts = [...html.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)].map(([, term, value]) => [
      term,
      value,
    ]);
    expect(facts).toEqual([
      ['Position', '3'],
      ['Queue rule', 'default'],
      ['Priority', 'hotfix'],
      ['Estimated merge', 'in 30 min'],
      ['Checks', 'pending on #101 (draft_pr)'],
    ]);
  });

  it('marks which merge conditions hold and which do not, nested as evaluated', () => {
    expect(html).toContain('<h2>Merge conditions</h2>');
    const marks = [...html.matchAll(/<span class="(holds|fails)">(.*?)<\/span> <code>(.*?)<\/code>/g)].map(
      ([, state, words, label]) => [label, state, words],
    );
    expect(marks).toEqual([
      ['all of', 'fails', '✗ does not hold'],
      ['check-success=ci/unit', 'holds', '✓ holds'],
      ['#approved-reviews-by>=2', 'fails', '✗ does not hold'],
    ]);
    expect(html).toContain(
      '<code>check-success=ci/unit</code><span class="muted"> The unit tests passed</span>',
    );
    // The subconditions are lists inside their parent's item.
    expect(html).toMatch(
      /^<h2>In the queue<\/h2>.*<ul class="conditions"><li>.*<ul class="conditions"><li>/s,
    );
  });

  it('leaves out checks and conditions before the queue has checked it', () => {
    const waiting = render(
      <QueuePlace
        queued={{ ...queued, estimated_time_of_merge: null, mergeability_check: null }}
        now={NOW}
      />,
    );
    expect(waiting).toContain('<dt>Estimated merge</dt><dd>unknown</dd>');
    expect(waiting).not.toContain('<dt>Checks</dt>');
    expect(waiting).not.toContain('Merge conditions');
  });
});
