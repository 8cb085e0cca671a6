import type { ValidationOptions } from 'class-validator';
import {
  isStorableInstant,
  MAX_STORABLE_INSTANT_ISO,
  MIN_STORABLE_INSTANT_ISO,
  parseNaiveDateTime,
} from '@switchyard/kernel';
import { parseRfc3339 } from '../../time/rfc3339';
import { defineRule } from '../define-rule';
import { RANK_FORMAT } from '../issue-describers';
import { issueShapes } from '../issue-shapes';
import type { IssueShape } from '../validation-issue';

const UNIX_TIMESTAMP_REFUSED = 'Unix timestamps are not accepted; use ISO 8601 with a UTC offset';
const OUT_OF_RANGE = `the instant must fall between ${MIN_STORABLE_INSTANT_ISO} and ${MAX_STORABLE_INSTANT_ISO}`;

/** Parses and, beyond the syntax, keeps to the instants every store can hold (kernel). */
const storableRfc3339 = (value: unknown) => {
  const result = parseRfc3339(value);
  return result.ok && !isStorableInstant(result.value.date) ? null : result;
};

const rfc3339 = defineRule<[]>({
  name: 'isRfc3339DateTime',
  rank: RANK_FORMAT,
  test: (value) => storableRfc3339(value)?.ok === true,
  describe(value): IssueShape {
    const result = storableRfc3339(value);
    if (result === null) return issueShapes.valueError(OUT_OF_RANGE);
    if (result.ok) return issueShapes.datetimeParsing();
    switch (result.reason) {
      case 'not_a_string':
        return issueShapes.datetimeType();
      case 'unix_timestamp':
        return issueShapes.valueError(UNIX_TIMESTAMP_REFUSED);
      case 'missing_offset':
        return issueShapes.timezoneAware();
      case 'invalid':
        return issueShapes.datetimeParsing();
    }
  },
});

const naive = defineRule<[]>({
  name: 'isNaiveDateTime',
  rank: RANK_FORMAT,
  test: (value) => parseNaiveDateTime(value).ok,
  describe(value): IssueShape {
    const result = parseNaiveDateTime(value);
    if (result.ok) return issueShapes.datetimeParsing();
    switch (result.reason) {
      case 'not_a_string':
        return issueShapes.datetimeType();
      case 'has_offset':
        return issueShapes.timezoneNaive();
      case 'invalid':
        return issueShapes.datetimeParsing();
    }
  },
});

/**
 * An instant with a UTC offset (`2026-05-01T00:00:00Z`, `…+02:00`) within the storable range;
 * offset-less values, Unix timestamps and instants outside years 1–9999 UTC are refused. The property keeps the string: parse it with parseRfc3339 in the handler
 * (or a @Transform) to get the Date and the microsecond-precise ISO form.
 */
export const IsRfc3339DateTime = (options?: ValidationOptions): PropertyDecorator => rfc3339([], options);

/** A wall-clock ISO 8601 date-time with no offset and no `Z` (freeze start/end). */
export const IsNaiveDateTime = (options?: ValidationOptions): PropertyDecorator => naive([], options);
