import {
  STORABLE_STRING_MAX_CODE_POINTS,
  storableStringProblem,
  unstorableCharacterProblem,
} from '@switchyard/kernel';
import type { ValidationOptions } from 'class-validator';
import { defineRule } from '../define-rule';
import { RANK_BOUND } from '../issue-describers';
import { issueShapes } from '../issue-shapes';

const storableString = defineRule<[number]>({
  name: 'isStorableString',
  rank: RANK_BOUND,
  test: (value, [max]) => typeof value === 'string' && storableStringProblem(value, max) === null,
  describe(value, [max]) {
    if (typeof value !== 'string') return issueShapes.stringType();
    const problem = storableStringProblem(value, max);
    if (problem?.kind === 'too_long') return issueShapes.stringTooLong(problem.maxCodePoints);
    return issueShapes.valueError(`the text ${problem?.message ?? 'cannot be stored'}`);
  },
});

/**
 * A string every store can hold (kernel's storable-string rules): at most `max` code points
 * (pydantic's `string_too_long`), no NUL and no lone surrogate (`value_error`). Put it on every
 * string the service stores.
 */
export const IsStorableString = (
  max = STORABLE_STRING_MAX_CODE_POINTS,
  options?: ValidationOptions,
): PropertyDecorator => storableString([max], options);

const storableText = defineRule<[]>({
  name: 'isStorableText',
  rank: RANK_BOUND,
  test: (value) => typeof value === 'string' && unstorableCharacterProblem(value) === null,
  describe(value) {
    if (typeof value !== 'string') return issueShapes.stringType();
    return issueShapes.valueError(
      `the text ${unstorableCharacterProblem(value)?.message ?? 'cannot be stored'}`,
    );
  },
});

/**
 * Text whose characters every store can hold (no NUL, no lone surrogate), for fields whose length
 * another rule bounds above the storable-string ceiling (a `.mergify.yml` of 1,048,576 characters):
 * the same `value_error` as IsStorableString.
 */
export const IsStorableText = (options?: ValidationOptions): PropertyDecorator => storableText([], options);
