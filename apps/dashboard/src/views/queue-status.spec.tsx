import { render } from 'preact-render-to-string';
import type { BatchJson, PullRequestJson, QueueStatusJson, ScheduledFreezeJson } from '../api-types';
import { trainOf, waitingRowsOf } from '../queue-view-model';
import { QueueBanners, Train, WaitingList } from './queue-status';

const NOW = Date.parse('2026-03-02T10:30:00Z');
const repository = 'acme/shop';

const pull = (number: number, title: string, extra: Partial<PullRequestJson> = {}): PullRequestJson => ({
  number,
  title,
  url: `https://github.com/acme/shop/pull/${number}`,
  author: { id: 7, login: 'ada' },
  queued_at: '2026-03-02T10:00:00Z',
  priority_alias: 'medium',
  priority_rule_name: 'default',
  labels: [],
  scopes: [],
  ...extra,
});

const batch = (id: string, code: string, pulls: PullRequestJson[], extra: Partial<BatchJson>): BatchJson => ({
  id,
  name: pulls.map((p) => `#${p.number}`).join(' + '),
  parent_ids: [],
  status: { code },
  started_at: '2026-03-02T10:05:00Z',
  estimated_merge_at: null,
  ci_finished_at: null,
  scopes: [],
  queue_rule_name: 'default',
  checks_summary: { passed: 0, total: 0 },
  pull_requests: pulls,
  queue_pull_request_number: null,
  ...extra,
});

const status: QueueStatusJson = {
  mode: 'parallel',
  pause: null,
  batches: [
    batch('b-1', 'running', [pull(41, 'Checkout: retry card payments'), pull(42, 'Bump lodash')], {
      checks_summary: { passed: 3, total: 4 },
      queue_pull_request_number: 101,
      estimated_merge_at: '2026-03-02T10:42:00Z',
    }),
    batch('b-2', 'waiting_for_previous_batches', [pull(43, 'Cart: show discounts')], {}),
  ],
  waiting_pull_requests: [
    pull(50, 'Hotfix: tax rounding', {
      priority_alias: 'high',
      scopes: ['payments', 'api'],
      estimated_merge_at: '2026-03-02T11:10:00Z',
      author: { id: 8, login: 'grace' },
    }),
    pull(51, 'Docs: queue rules', { priority_alias: '', priority_rule_name: 'low', is_frozen: true }),
    pull(52, 'Refactor search', { dequeue_requested: true }),
  ],
};

/** The text of each match of `pattern`'s first group, in document order. */
const all = (html: string, pattern: RegExp): string[] =>
  [...html.matchAll(new RegExp(pattern, 'g'))].map((match) => match[1]);
/** The markup from each `<tag …>` with this data-testid up to the next one (or the end). */
const parts = (html: string, tag: string, testId: string): string[] =>
  html.split(new RegExp(`(?=<${tag}[^>]*data-testid="${testId}")`)).slice(1);
const text = (html: string): string => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('the train of running batches', () => {
  const html = render(<Train repository={repository} train={trainOf(status)} now={NOW} />);
  const cars = parts(html, 'li', 'batch');

  it('lists the batches first to merge first, each with its state class and words', () => {
    expect(html).toContain('<h2>Batches (2)</h2>');
    expect(html).toContain('<ol class="train" aria-label="Batches, first to merge first">');
    expect(cars).toHaveLength(2);
    expect(cars[0]).toMatch(/^<li class="car car-running"/);
    expect(cars[0]).toContain('<h3>#41 + #42</h3><p class="car-state">CI running</p>');
    expect(cars[1]).toMatch(/^<li class="car car-waiting_for_previous_batches"/);
    expect(cars[1]).toContain('<p class="car-state">Waiting for the batches ahead</p>');
  });

  it("shows a batch's CI progress, its draft pull request and when it merges", () => {
    expect(cars[0]).toContain(
      '<progress max="1" value="0.75" aria-label="3/4 checks passed">3/4 checks passed</progress>',
    );
    expect(cars[0]).toContain('<p>Checks run on #101</p>');
    expect(cars[0]).toContain('<p class="muted">Merges in 12 min</p>');
    // No checks known yet: no progress bar, no draft, no estimate.
    expect(cars[1]).not.toContain('<progress');
    expect(cars[1]).toContain('0/0 checks passed');
    expect(cars[1]).not.toContain('Checks run on');
    expect(cars[1]).not.toContain('Merges');
  });

  it("links each batch's pull requests to their stories", () => {
    expect(all(cars[0], /<li>(.*?)<\/li>/)).toEqual([
      '<a href="/ui/repos/acme/shop/pulls/41">#41</a> Checkout: retry card payments',
      '<a href="/ui/repos/acme/shop/pulls/42">#42</a> Bump lodash',
    ]);
    expect(cars[1]).toContain('<a href="/ui/repos/acme/shop/pulls/43">#43</a> Cart: show discounts');
  });

  it('says so when no batch runs', () => {
    const empty = render(<Train repository={repository} train={[]} now={NOW} />);
    expect(empty).toBe('<h2>Batches (0)</h2><p>No batch is running.</p>');
  });
});

describe('the waiting list', () => {
  const html = render(<WaitingList repository={repository} waiting={waitingRowsOf(status)} now={NOW} />);
  const cells = parts(html, 'tr', 'waiting').map((row) => all(row, /<td>(.*?)<\/td>/).map(text));

  it('is a table of the waiting pull requests in queue order, with a caption for screen readers', () => {
    expect(html).toContain('<h2>Waiting (3)</h2>');
    expect(html).toContain(
      '<caption class="visually-hidden">Waiting pull requests, in queue order</caption>',
    );
    expect(all(html, /<th scope="col">(.*?)<\/th>/)).toEqual([
      '#',
      'Pull request',
      'Author',
      'Priority',
      'Scopes',
      'Estimated merge',
    ]);
    expect(cells.map((row) => row[0])).toEqual(['1', '2', '3']);
    expect(all(html, /<a href="([^"]+)">/)).toEqual([
      '/ui/repos/acme/shop/pulls/50',
      '/ui/repos/acme/shop/pulls/51',
      '/ui/repos/acme/shop/pulls/52',
    ]);
  });

  it('shows each one with its author, priority, scopes and estimated merge', () => {
    expect(cells[0]).toEqual([
      '1',
      '#50 Hotfix: tax rounding',
      'grace',
      'high',
      'payments, api',
      'in 40 min',
    ]);
    // No priority alias: the rule's name; no scopes: a dash; no estimate: unknown.
    expect(cells[1].slice(2)).toEqual(['ada', 'low', '—', 'unknown']);
  });

  it('tags a frozen pull request and one asked to leave', () => {
    expect(cells[1][1]).toBe('#51 Docs: queue rulesfrozen');
    expect(parts(html, 'tr', 'waiting')[1]).toContain('<span class="tag">frozen</span>');
    expect(parts(html, 'tr', 'waiting')[2]).toContain('<span class="tag">leaving</span>');
    expect(parts(html, 'tr', 'waiting')[0]).not.toContain('class="tag"');
  });

  it('says so when nothing waits', () => {
    const empty = render(<WaitingList repository={repository} waiting={[]} now={NOW} />);
    expect(empty).toBe('<h2>Waiting (0)</h2><p>No pull request is waiting.</p>');
  });
});

describe('the pause and freeze banners', () => {
  const freeze: ScheduledFreezeJson = {
    id: 'f-1',
    reason: 'Black Friday',
    start: '2026-11-27T00:00:00',
    end: '2026-11-30T09:00:00',
    timezone: 'Europe/Paris',
  };

  it('shows a pause with its reason, as a status', () => {
    const html = render(
      <QueueBanners pause={{ paused: true, reason: 'Incident 4711: main is red' }} freezes={[]} />,
    );
    expect(html).toBe('<p class="banner banner-paused" role="status">Paused: Incident 4711: main is red</p>');
  });

  it('says since when a pause holds, and that it gave no reason', () => {
    const html = render(
      <QueueBanners pause={{ paused: true, reason: null, paused_at: '2026-03-02T09:00:00Z' }} freezes={[]} />,
    );
    expect(text(html)).toBe(
      `Paused since ${new Date('2026-03-02T09:00:00Z').toLocaleString()}: no reason given`,
    );
  });

  it('shows each ongoing freeze with its reason, window and timezone', () => {
    const html = render(
      <QueueBanners
        pause={{ paused: false }}
        freezes={[freeze, { ...freeze, id: 'f-2', reason: 'Release 4.2', end: null, timezone: 'UTC' }]}
      />,
    );
    expect(all(html, /<p class="banner banner-frozen" role="status">(.*?)<\/p>/).map(text)).toEqual([
      'Frozen: Black Friday (from 2026-11-27T00:00:00 to 2026-11-30T09:00:00, Europe/Paris)',
      'Frozen: Release 4.2 (from 2026-11-27T00:00:00, UTC)',
    ]);
    expect(html).not.toContain('banner-paused');
  });

  it('shows nothing for a queue that is neither paused nor frozen', () => {
    expect(render(<QueueBanners pause={null} freezes={[]} />)).toBe('');
  });
});
