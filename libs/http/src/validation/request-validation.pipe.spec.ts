import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import type { ArgumentMetadata } from '@nestjs/common';
import { MaxCodePoints } from './decorators/code-point-length';
import { IsNaiveDateTime, IsRfc3339DateTime } from './decorators/date-time';
import { IsIanaTimeZone } from './decorators/iana-time-zone';
import { QueryArray, QueryBoolean, QueryInt } from './decorators/query-transforms';
import { LessThan } from './decorators/strict-bounds';
import { IsUuid } from './decorators/uuid';
import { RequestValidationPipe } from './request-validation.pipe';
import { RequestValidationException, type ValidationIssue } from './validation-issue';

class PauseBody {
  @IsString()
  @MaxCodePoints(255)
  reason!: string;
}

enum Outcome {
  Success = 'success',
  Failure = 'failure',
}

class LogsQuery {
  @IsOptional()
  @QueryArray()
  @QueryInt()
  @IsInt({ each: true })
  @Min(1, { each: true })
  @LessThan(2147483647, { each: true })
  pull_request?: number[];

  @IsOptional()
  @QueryArray()
  @IsEnum(Outcome, { each: true })
  outcome?: Outcome[];

  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;

  @IsOptional()
  @IsRfc3339DateTime()
  received_from?: string;

  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  is_quarantined?: boolean;
}

class Condition {
  @IsString()
  @IsIn(['base', 'label'])
  attribute!: string;
}

class FreezeBody {
  @IsString()
  reason!: string;

  @IsOptional()
  @IsNaiveDateTime()
  start?: string | null;

  @IsIanaTimeZone()
  timezone!: string;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Condition)
  matching_conditions?: Condition[];

  @IsOptional()
  @IsUuid()
  id?: string;
}

const pipe = new RequestValidationPipe();
const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });
const query = (metatype: ArgumentMetadata['metatype'], data?: string): ArgumentMetadata => ({
  type: 'query',
  metatype,
  data,
});

async function issuesOf(value: unknown, metadata: ArgumentMetadata): Promise<ValidationIssue[]> {
  try {
    await pipe.transform(value, metadata);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationException);
    expect((error as RequestValidationException).getStatus()).toBe(422);
    return (error as RequestValidationException).issues;
  }
  throw new Error('expected a validation failure');
}

describe('RequestValidationPipe', () => {
  it('reports a missing body field with the whole body as input (the freeze delete case)', async () => {
    expect(await issuesOf({}, body(PauseBody))).toEqual([
      { type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} },
    ]);
  });

  it('treats an absent body as an empty object', async () => {
    expect(await issuesOf(undefined, body(PauseBody))).toEqual([
      { type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} },
    ]);
  });

  it('counts string length in code points: 255 emoji pass, 256 fail', async () => {
    await expect(pipe.transform({ reason: '😀'.repeat(255) }, body(PauseBody))).resolves.toBeInstanceOf(
      PauseBody,
    );
    const long = '😀'.repeat(256);
    expect(await issuesOf({ reason: long }, body(PauseBody))).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'reason'],
        msg: 'String should have at most 255 characters',
        input: long,
        ctx: { max_length: 255 },
      },
    ]);
  });

  it('reports the type error, not the length error, for a non-string', async () => {
    expect(await issuesOf({ reason: 12 }, body(PauseBody))).toEqual([
      { type: 'string_type', loc: ['body', 'reason'], msg: 'Input should be a valid string', input: 12 },
    ]);
  });

  it('refuses a body that is not an object', async () => {
    const [issue] = await issuesOf(['x'], body(PauseBody));
    expect(issue).toMatchObject({ type: 'model_attributes_type', loc: ['body'], input: ['x'] });
  });

  it('drops unknown fields, as FastAPI ignores them', async () => {
    const result = await pipe.transform({ reason: 'r', extra: 1 }, body(PauseBody));
    expect(result).toEqual(Object.assign(new PauseBody(), { reason: 'r' }));
  });

  it('turns a single query value into an array and converts integers', async () => {
    const result = (await pipe.transform(
      { pull_request: '42', per_page: '10' },
      query(LogsQuery),
    )) as LogsQuery;
    expect(result.pull_request).toEqual([42]);
    expect(result.per_page).toBe(10);
  });

  it('keeps repeated query values in order', async () => {
    const result = (await pipe.transform({ pull_request: ['3', '1', '2'] }, query(LogsQuery))) as LogsQuery;
    expect(result.pull_request).toEqual([3, 1, 2]);
  });

  it('reports each failing list item with its index and the text the caller sent', async () => {
    expect(await issuesOf({ pull_request: ['5', 'abc', '0', '2147483647'] }, query(LogsQuery))).toEqual([
      {
        type: 'int_parsing',
        loc: ['query', 'pull_request', 1],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'abc',
      },
      {
        type: 'greater_than_equal',
        loc: ['query', 'pull_request', 2],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
      {
        type: 'less_than',
        loc: ['query', 'pull_request', 3],
        msg: 'Input should be less than 2147483647',
        input: '2147483647',
        ctx: { lt: 2147483647 },
      },
    ]);
  });

  it('reports a bound with the original text as input', async () => {
    expect(await issuesOf({ per_page: '500' }, query(LogsQuery))).toEqual([
      {
        type: 'less_than_equal',
        loc: ['query', 'per_page'],
        msg: 'Input should be less than or equal to 100',
        input: '500',
        ctx: { le: 100 },
      },
    ]);
  });

  it("does not take '1e3' or '0x10' for integers", async () => {
    const issues = await issuesOf({ per_page: '0x10' }, query(LogsQuery));
    expect(issues[0]).toMatchObject({ type: 'int_parsing', input: '0x10' });
  });

  it('describes enum members the way pydantic does', async () => {
    expect(await issuesOf({ outcome: 'maybe' }, query(LogsQuery))).toEqual([
      {
        type: 'enum',
        loc: ['query', 'outcome', 0],
        msg: "Input should be 'success' or 'failure'",
        input: 'maybe',
        ctx: { expected: "'success' or 'failure'" },
      },
    ]);
  });

  it.each([
    ['2026-05-01T00:00:00', 'timezone_aware'],
    ['1714521600', 'value_error'],
    ['yesterday', 'datetime_from_date_parsing'],
    ['2026-02-30T00:00:00Z', 'datetime_from_date_parsing'],
    ['0000-01-01T00:00:00Z', 'value_error'],
    ['0001-01-01T00:00:00+00:01', 'value_error'],
    ['9999-12-31T23:59:59-00:01', 'value_error'],
  ])('refuses received_from=%s as %s', async (value, type) => {
    const [issue] = await issuesOf({ received_from: value }, query(LogsQuery));
    expect(issue).toMatchObject({ type, loc: ['query', 'received_from'], input: value });
  });

  it('accepts offsets, Z and nanoseconds', async () => {
    for (const value of [
      '2026-05-01T00:00:00Z',
      '2026-05-01T00:00:00+02:00',
      '2026-05-01T00:00:00.123456789Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999999Z',
    ]) {
      await expect(pipe.transform({ received_from: value }, query(LogsQuery))).resolves.toBeDefined();
    }
  });

  it('parses pydantic boolean words and refuses others', async () => {
    const result = (await pipe.transform({ is_quarantined: 'yes' }, query(LogsQuery))) as LogsQuery;
    expect(result.is_quarantined).toBe(true);
    const [issue] = await issuesOf({ is_quarantined: 'perhaps' }, query(LogsQuery));
    expect(issue).toMatchObject({ type: 'bool_parsing', input: 'perhaps' });
  });

  it('refuses an offset on a naive date-time, and an unknown timezone', async () => {
    const issues = await issuesOf(
      { reason: 'r', start: '2099-01-01T00:00:00Z', timezone: 'Mars/Base' },
      body(FreezeBody),
    );
    expect(issues).toEqual([
      {
        type: 'timezone_naive',
        loc: ['body', 'start'],
        msg: 'Input should not have timezone info',
        input: '2099-01-01T00:00:00Z',
      },
      expect.objectContaining({ type: 'value_error', loc: ['body', 'timezone'], input: 'Mars/Base' }),
    ]);
  });

  it('locates errors inside nested lists of objects', async () => {
    const issues = await issuesOf(
      {
        reason: 'r',
        timezone: 'Europe/Paris',
        matching_conditions: [{ attribute: 'base' }, { attribute: 'x' }, 'y'],
      },
      body(FreezeBody),
    );
    expect(issues).toEqual([
      expect.objectContaining({
        type: 'enum',
        loc: ['body', 'matching_conditions', 1, 'attribute'],
        input: 'x',
      }),
      expect.objectContaining({
        type: 'model_attributes_type',
        loc: ['body', 'matching_conditions', 2],
        input: 'y',
      }),
    ]);
  });

  it('reports uuid_parsing for a malformed uuid', async () => {
    const issues = await issuesOf({ reason: 'r', timezone: 'UTC', id: 'not-a-uuid' }, body(FreezeBody));
    expect(issues).toEqual([expect.objectContaining({ type: 'uuid_parsing', loc: ['body', 'id'] })]);
  });

  it('converts bare numeric and boolean query parameters strictly', async () => {
    await expect(pipe.transform('12', query(Number, 'per_page'))).resolves.toBe(12);
    await expect(pipe.transform('true', query(Boolean, 'flag'))).resolves.toBe(true);
    const issues = await issuesOf('', query(Number, 'per_page'));
    expect(issues).toEqual([
      expect.objectContaining({ type: 'float_parsing', loc: ['query', 'per_page'], input: '' }),
    ]);
  });

  it('leaves custom parameter decorators alone', async () => {
    const principal = { kind: 'admin_key' };
    await expect(pipe.transform(principal, { type: 'custom', metatype: PauseBody })).resolves.toBe(principal);
  });
});
