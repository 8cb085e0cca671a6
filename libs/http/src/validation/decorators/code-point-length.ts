import type { ValidationOptions } from 'class-validator';
import { codePointLength } from '@switchyard/kernel';
import { defineRule } from '../define-rule';
import { RANK_BOUND } from '../issue-describers';
import { issueShapes } from '../issue-shapes';

const maxCodePoints = defineRule<[number]>({
  name: 'maxCodePoints',
  rank: RANK_BOUND,
  test: (value, [max]) => typeof value === 'string' && codePointLength(value, max) <= max,
  describe: (value, [max]) =>
    typeof value === 'string' ? issueShapes.stringTooLong(max) : issueShapes.stringType(),
});

const minCodePoints = defineRule<[number]>({
  name: 'minCodePoints',
  rank: RANK_BOUND,
  test: (value, [min]) => typeof value === 'string' && codePointLength(value, min) >= min,
  describe: (value, [min]) =>
    typeof value === 'string' ? issueShapes.stringTooShort(min) : issueShapes.stringType(),
});

/** At most `max` Unicode code points (`[...s].length`), reported as pydantic's `string_too_long`. */
export const MaxCodePoints = (max: number, options?: ValidationOptions): PropertyDecorator =>
  maxCodePoints([max], options);

/** At least `min` Unicode code points, reported as pydantic's `string_too_short`. */
export const MinCodePoints = (min: number, options?: ValidationOptions): PropertyDecorator =>
  minCodePoints([min], options);
