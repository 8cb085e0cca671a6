import { RequestValidationException, RequestValidationPipe, type ValidationIssue } from '@switchyard/http';
import { ChangeFreezeBody, freezeChangesOf } from './change-freeze.body';
import { CreateFreezeBody } from './create-freeze.body';
import { DeleteFreezeBody } from './delete-freeze.body';
import { PauseBody } from './pause.body';

const pipe = new RequestValidationPipe();
const parse = <T>(metatype: new () => T, body: unknown) =>
  pipe.transform(body, { type: 'body', metatype, data: undefined }) as Promise<T>;

async function issuesOf(metatype: new () => object, body: unknown): Promise<ValidationIssue[]> {
  try {
    await parse(metatype, body);
  } catch (error) {
    if (error instanceof RequestValidationException) return error.issues;
    throw error;
  }
  throw new Error('expected a 422');
}

const validFreeze = { reason: 'release', start: '2099-01-01T00:00:00', end: null, timezone: 'Europe/Paris' };

describe('request bodies', () => {
  describe('pause', () => {
    it('requires a reason', async () =>
      expect(await issuesOf(PauseBody, {})).toEqual([
        { type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} },
      ]));

    it('counts the 255 limit in code points', async () => {
      await expect(parse(PauseBody, { reason: '🚀'.repeat(255) })).resolves.toEqual({
        reason: '🚀'.repeat(255),
      });
      const [issue] = await issuesOf(PauseBody, { reason: 'x'.repeat(256) });
      expect(issue).toMatchObject({
        type: 'string_too_long',
        loc: ['body', 'reason'],
        ctx: { max_length: 255 },
      });
    });
  });

  describe('freeze creation', () => {
    it('accepts the CLI body and echoes conditions as objects, untouched', async () => {
      const matching = [{ or: ['base=main', { not: 'draft' }] }];
      const body = await parse(CreateFreezeBody, { ...validFreeze, matching_conditions: matching, extra: 1 });
      expect(body.matching_conditions).toEqual(matching);
      expect(body).not.toHaveProperty('extra');
    });

    it('requires start but accepts null', async () => {
      await expect(parse(CreateFreezeBody, { ...validFreeze, start: null })).resolves.toMatchObject({
        start: null,
      });
      const { start: _, ...withoutStart } = validFreeze;
      expect(await issuesOf(CreateFreezeBody, withoutStart)).toEqual([
        { type: 'missing', loc: ['body', 'start'], msg: 'Field required', input: withoutStart },
      ]);
    });

    it.each([
      ['a start with Z', { start: '2099-01-01T00:00:00Z' }, 'start', 'timezone_naive'],
      ['an end with an offset', { end: '2099-01-02T00:00:00+02:00' }, 'end', 'timezone_naive'],
      ['a start that is not a date', { start: 'soon' }, 'start', 'datetime_from_date_parsing'],
      ['an unknown timezone', { timezone: 'Mars/Base' }, 'timezone', 'value_error'],
      ['a numeric timezone', { timezone: 2 }, 'timezone', 'string_type'],
      ['a reason over 10000 characters', { reason: 'x'.repeat(10001) }, 'reason', 'string_too_long'],
      [
        'conditions that are not a list',
        { matching_conditions: 'base=main' },
        'matching_conditions',
        'list_type',
      ],
    ])('refuses %s with a 422 naming the field', async (_, change, field, type) => {
      const issues = await issuesOf(CreateFreezeBody, { ...validFreeze, ...change });
      expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([[['body', field], type]]);
    });

    it.each([
      ['an empty condition', { exclude_conditions: ['label=a', ''] }, ['exclude_conditions', 1]],
      ['a malformed group', { matching_conditions: [{ xor: [] }] }, ['matching_conditions', 0]],
      [
        'a misspelt attribute',
        { matching_conditions: ['base=main', 'lable=hotfix'] },
        ['matching_conditions', 1],
      ],
      [
        'an operator the attribute refuses',
        { exclude_conditions: ['schedule>Mon'] },
        ['exclude_conditions', 0],
      ],
    ])('refuses %s with a 422 naming its position in the list', async (_, change, loc) => {
      const issues = await issuesOf(CreateFreezeBody, { ...validFreeze, ...change });
      expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([[['body', ...loc], 'value_error']]);
    });

    it('reports each bad condition, with the parser detail and the path inside a block', async () => {
      const issues = await issuesOf(CreateFreezeBody, {
        ...validFreeze,
        matching_conditions: [{ and: ['base=main', ' '] }, 'draft', 'label~=(oops'],
      });
      expect(issues).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'matching_conditions', 0],
          msg: "Value error, and[1]: Invalid condition ' '. Condition empty",
          input: { and: ['base=main', ' '] },
          ctx: { error: "and[1]: Invalid condition ' '. Condition empty" },
        },
        {
          type: 'value_error',
          loc: ['body', 'matching_conditions', 2],
          msg: expect.stringMatching(
            /^Value error, Invalid condition 'label~=\(oops'\. Invalid regular expression/,
          ),
          input: 'label~=(oops',
          ctx: expect.anything(),
        },
      ]);
    });

    it('refuses more than 500 conditions as a list that is too long', async () => {
      const issues = await issuesOf(CreateFreezeBody, {
        ...validFreeze,
        exclude_conditions: Array.from({ length: 501 }, () => 'draft'),
      });
      expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([
        [['body', 'exclude_conditions'], 'too_long'],
      ]);
    });
  });

  describe('freeze change', () => {
    it('keeps absent keys absent and null start/end as values', async () => {
      expect(freezeChangesOf(await parse(ChangeFreezeBody, {}))).toEqual({});
      expect(freezeChangesOf(await parse(ChangeFreezeBody, { start: null, end: null }))).toEqual({
        start: null,
        end: null,
      });
      expect(
        freezeChangesOf(
          await parse(ChangeFreezeBody, { reason: null, timezone: null, matching_conditions: null }),
        ),
      ).toEqual({});
      expect(
        freezeChangesOf(
          await parse(ChangeFreezeBody, {
            reason: 'r',
            timezone: 'UTC',
            matching_conditions: [],
            end: '2099-01-01T00:00:00',
          }),
        ),
      ).toEqual({ reason: 'r', timezone: 'UTC', matchingConditions: [], end: '2099-01-01T00:00:00' });
    });

    it('refuses an offset on start', async () =>
      expect((await issuesOf(ChangeFreezeBody, { start: '2099-01-01T00:00:00Z' }))[0]).toMatchObject({
        loc: ['body', 'start'],
        type: 'timezone_naive',
      }));
  });

  describe('freeze deletion', () => {
    it('accepts {} and no body at all', async () => {
      expect((await parse(DeleteFreezeBody, {})).delete_reason).toBeUndefined();
      expect((await parse(DeleteFreezeBody, undefined)).delete_reason).toBeUndefined();
      expect((await parse(DeleteFreezeBody, { delete_reason: 'audit' })).delete_reason).toBe('audit');
    });
  });
});
