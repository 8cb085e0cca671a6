import type { PullRequestSnapshot } from '@switchyard/code-host';
import { type ConditionContext, pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions';
import { resolveNaive } from '@switchyard/kernel';
import type { Condition } from '../conditions/condition';
import { activeFreezesAt, type CalendarFreeze, judgeFreezes } from './freeze-calendar';

/** A freeze as a user writes it: naive wall-clock times in a zone. */
const freeze = (
  id: string,
  timezone: string,
  start: string,
  end: string | null,
  matchingConditions: Condition[] = [],
  excludeConditions: Condition[] = [],
): CalendarFreeze => ({
  id,
  startAt: resolveNaive(start, timezone),
  endAt: end === null ? null : resolveNaive(end, timezone),
  matchingConditions,
  excludeConditions,
});

const main = pullRequestSnapshotFixture({ author: 'bob', labels: [] });
const at = (iso: string) => new Date(iso);
const contextAt = (
  instant: string,
  pullRequest: PullRequestSnapshot = main,
  extra: Partial<ConditionContext> = {},
) => ({
  pullRequest,
  now: at(instant),
  ...extra,
});
const activeIds = (freezes: CalendarFreeze[], instant: string, pr: PullRequestSnapshot = main) =>
  activeFreezesAt(freezes, contextAt(instant, pr)).map((f) => f.id);

describe('freeze calendar', () => {
  describe('the window', () => {
    const christmas = freeze('christmas', 'Europe/Paris', '2026-12-24T18:00:00', '2026-12-26T08:00:00');

    it('holds from the start instant included to the end instant excluded', () => {
      expect(activeIds([christmas], '2026-12-24T16:59:59.999Z')).toEqual([]);
      expect(activeIds([christmas], '2026-12-24T17:00:00Z')).toEqual(['christmas']);
      expect(activeIds([christmas], '2026-12-26T06:59:59.999Z')).toEqual(['christmas']);
      expect(activeIds([christmas], '2026-12-26T07:00:00Z')).toEqual([]);
    });

    it('reads the same wall-clock window in each freeze own zone', () => {
      const paris = freeze('paris', 'Europe/Paris', '2026-07-01T09:00:00', '2026-07-01T17:00:00');
      const newYork = freeze('new-york', 'America/New_York', '2026-07-01T09:00:00', '2026-07-01T17:00:00');
      const kolkata = freeze('kolkata', 'Asia/Kolkata', '2026-07-01T09:00:00', '2026-07-01T17:00:00');
      const all = [paris, newYork, kolkata];
      expect(activeIds(all, '2026-07-01T04:00:00Z')).toEqual(['kolkata']);
      expect(activeIds(all, '2026-07-01T10:00:00Z')).toEqual(['paris', 'kolkata']);
      expect(activeIds(all, '2026-07-01T14:00:00Z')).toEqual(['paris', 'new-york']);
      expect(activeIds(all, '2026-07-01T20:00:00Z')).toEqual(['new-york']);
    });

    it('holds forever when the end is null', () => {
      const emergency = freeze('emergency', 'UTC', '2026-01-01T00:00:00', null);
      expect(activeIds([emergency], '2025-12-31T23:59:59Z')).toEqual([]);
      expect(activeIds([emergency], '2099-12-31T23:59:59Z')).toEqual(['emergency']);
    });
  });

  describe('across DST changes', () => {
    it('Paris spring forward: a start at 02:30, which does not exist, begins at 03:30 CEST', () => {
      const gap = freeze('gap', 'Europe/Paris', '2026-03-29T02:30:00', '2026-03-29T04:00:00');
      expect(activeIds([gap], '2026-03-29T01:29:59Z')).toEqual([]);
      expect(activeIds([gap], '2026-03-29T01:30:00Z')).toEqual(['gap']);
      expect(activeIds([gap], '2026-03-29T02:00:00Z')).toEqual([]);
    });

    it('Paris fall back: a start at 02:30, which happens twice, begins at the second 02:30 (CET)', () => {
      const overlap = freeze('overlap', 'Europe/Paris', '2026-10-25T02:30:00', '2026-10-25T03:00:00');
      // 00:45Z is the first 02:45 (CEST): the wall clock is inside the window, but luxon read the
      // start as the second occurrence, so the freeze has not begun yet.
      expect(activeIds([overlap], '2026-10-25T00:45:00Z')).toEqual([]);
      expect(activeIds([overlap], '2026-10-25T01:30:00Z')).toEqual(['overlap']);
      expect(activeIds([overlap], '2026-10-25T01:59:59Z')).toEqual(['overlap']);
      expect(activeIds([overlap], '2026-10-25T02:00:00Z')).toEqual([]);
    });

    it('a night freeze over the Paris spring change lasts one real hour less than the wall clock says', () => {
      const night = freeze('night', 'Europe/Paris', '2026-03-28T22:00:00', '2026-03-29T06:00:00');
      expect(night.endAt!.getTime() - night.startAt.getTime()).toBe(7 * 3600_000);
      expect(activeIds([night], '2026-03-28T21:00:00Z')).toEqual(['night']);
      expect(activeIds([night], '2026-03-29T03:59:59Z')).toEqual(['night']);
      expect(activeIds([night], '2026-03-29T04:00:00Z')).toEqual([]);
    });

    it('a New York freeze over the fall change lasts one real hour more than the wall clock says', () => {
      const night = freeze('night', 'America/New_York', '2026-11-01T00:00:00', '2026-11-01T03:00:00');
      expect(night.startAt.toISOString()).toBe('2026-11-01T04:00:00.000Z');
      expect(night.endAt!.toISOString()).toBe('2026-11-01T08:00:00.000Z');
      expect(activeIds([night], '2026-11-01T07:30:00Z')).toEqual(['night']);
    });

    it('a New York start in the spring gap (02:30) begins at 03:30 EDT', () => {
      const gap = freeze('gap', 'America/New_York', '2026-03-08T02:30:00', null);
      expect(activeIds([gap], '2026-03-08T07:29:59Z')).toEqual([]);
      expect(activeIds([gap], '2026-03-08T07:30:00Z')).toEqual(['gap']);
    });
  });

  describe('conditions', () => {
    const during = '2026-05-01T12:00:00Z';
    const window = (matching: Condition[], exclude: Condition[] = []) =>
      freeze('f', 'UTC', '2026-05-01T00:00:00', '2026-05-02T00:00:00', matching, exclude);
    const pr = (overrides: Partial<PullRequestSnapshot>): PullRequestSnapshot => ({ ...main, ...overrides });
    const onBranch = (ref: string) => ({ ...main.base, ref });

    it('an empty matching list freezes every pull request', () => {
      expect(activeIds([window([])], during, pr({ base: onBranch('dev') }))).toEqual(['f']);
    });

    it('a top-level matching list is an AND', () => {
      const f = window(['base=main', 'author=bob']);
      expect(activeIds([f], during, pr({}))).toEqual(['f']);
      expect(activeIds([f], during, pr({ author: 'carol' }))).toEqual([]);
    });

    it('or, and, not nest', () => {
      const f = window([{ or: ['base=main', { and: ['base=release', { not: 'draft' }] }] }]);
      expect(activeIds([f], during, pr({ base: onBranch('main') }))).toEqual(['f']);
      expect(activeIds([f], during, pr({ base: onBranch('release') }))).toEqual(['f']);
      expect(activeIds([f], during, pr({ base: onBranch('release'), draft: true }))).toEqual([]);
      expect(activeIds([f], during, pr({ base: onBranch('dev') }))).toEqual([]);
    });

    it('a pull request escapes only if it matches every exclude condition', () => {
      const f = window(['base=main'], ['label=hotfix', 'author=alice']);
      expect(activeIds([f], during, pr({ labels: ['hotfix'], author: 'alice' }))).toEqual([]);
      expect(activeIds([f], during, pr({ labels: ['hotfix'] }))).toEqual(['f']);
      expect(activeIds([f], during, pr({ author: 'alice' }))).toEqual(['f']);
    });

    it('an empty exclude list lets nobody escape', () => {
      expect(activeIds([window(['base=main'], [])], during, pr({ labels: ['hotfix'] }))).toEqual(['f']);
    });

    it('judges with the whole condition language: regexes, globs, lengths, teams, schedules', () => {
      const docsOnly = window([{ not: 'files~=^src/' }, '#files>=1']);
      const touching = (...paths: string[]) =>
        pr({
          files: paths.map((filename) => ({
            filename,
            previousFilename: null,
            status: 'modified' as const,
            additions: 1,
            deletions: 0,
          })),
        });
      expect(activeIds([docsOnly], during, touching('docs/a.md', 'docs/b.md'))).toEqual(['f']);
      expect(activeIds([docsOnly], during, touching('docs/a.md', 'src/a.ts'))).toEqual([]);

      const sources = window(
        ['files*=src/**/*.{ts,tsx}'],
        ['#approved-reviews-by>=1', 'approved-reviews-by=@acme/release'],
      );
      const approvedBy = (author: string) =>
        pr({
          files: [
            {
              filename: 'src/ui/app.tsx',
              previousFilename: null,
              status: 'modified',
              additions: 1,
              deletions: 0,
            },
          ],
          reviews: [{ id: 1, author, state: 'APPROVED', submittedAt: null, commitId: null }],
        });
      const teams = { teams: { 'acme/release': ['rita'] } };
      expect(activeFreezesAt([sources], contextAt(during, approvedBy('rita'), teams))).toEqual([]);
      expect(
        activeFreezesAt([sources], contextAt(during, approvedBy('sam'), teams)).map((f) => f.id),
      ).toEqual(['f']);

      // 2026-05-01 is a Friday: a weekday-office-hours freeze within the window.
      const officeHours = window(['schedule=Mon-Fri 09:00-17:00[Europe/Paris]']);
      expect(activeIds([officeHours], '2026-05-01T12:00:00Z')).toEqual(['f']);
      expect(activeIds([officeHours], '2026-05-01T16:00:00Z')).toEqual([]);
    });

    it('does not evaluate conditions of freezes not in force, and says when they will be', () => {
      const later = freeze('later', 'UTC', '2027-01-01T00:00:00', null, ['lable=oops']);
      const [verdict] = judgeFreezes([later], contextAt(during));
      expect(verdict).toMatchObject({
        holds: false,
        matching: null,
        nextChangeAt: at('2027-01-01T00:00:00Z'),
      });
    });

    it('says when the verdict may next change: the end of the window or a time condition', () => {
      const f = window(['schedule=Mon-Fri 09:00-17:00[Europe/Paris]']);
      expect(judgeFreezes([f], contextAt('2026-05-01T12:00:00Z'))[0]!.nextChangeAt).toEqual(
        at('2026-05-01T15:01:00Z'),
      );
      expect(judgeFreezes([window([])], contextAt(during))[0]!.nextChangeAt).toEqual(
        at('2026-05-02T00:00:00Z'),
      );
    });

    it('holds when it cannot tell: a stored condition the language refuses, or a fact it was not given', () => {
      const legacy = window(['lable=hotfix']);
      const [refused] = judgeFreezes([legacy], contextAt(during));
      expect(refused).toMatchObject({ holds: true, matching: null });
      expect(refused!.undecided).toMatch(
        /matching_conditions\[0\]: Invalid condition 'lable=hotfix'. Invalid attribute/,
      );

      const byScope = window(['scope=frontend']);
      expect(activeIds([byScope], during)).toEqual(['f']);
      expect(activeFreezesAt([byScope], contextAt(during, main, { scopes: ['backend'] }))).toEqual([]);

      const excusedByScope = window([], ['scope=docs']);
      expect(activeIds([excusedByScope], during)).toEqual(['f']);
      expect(activeFreezesAt([excusedByScope], contextAt(during, main, { scopes: ['docs'] }))).toEqual([]);
    });
  });
});
