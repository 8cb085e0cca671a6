import type { ValidationOptions } from 'class-validator';
import { defineRule } from '../define-rule';
import { RANK_BOUND } from '../issue-describers';
import { issueShapes } from '../issue-shapes';

const isComparable = (value: unknown): value is number | bigint =>
  (typeof value === 'number' && !Number.isNaN(value)) || typeof value === 'bigint';

const lessThan = defineRule<[number | bigint]>({
  name: 'lessThan',
  rank: RANK_BOUND,
  test: (value, [bound]) => isComparable(value) && value < bound,
  describe: (_value, [bound]) => issueShapes.lessThan(bound),
});

const greaterThan = defineRule<[number | bigint]>({
  name: 'greaterThan',
  rank: RANK_BOUND,
  test: (value, [bound]) => isComparable(value) && value > bound,
  describe: (_value, [bound]) => issueShapes.greaterThan(bound),
});

/**
 * Exclusive bounds (pydantic's `lt`/`gt`); class-validator's Min/Max are inclusive. The spec's
 * pull-request filters are "each >= 1 and < 2147483647": `@Min(1) @LessThan(2147483647)`.
 */
export const LessThan = (bound: number | bigint, options?: ValidationOptions): PropertyDecorator =>
  lessThan([bound], options);

export const GreaterThan = (bound: number | bigint, options?: ValidationOptions): PropertyDecorator =>
  greaterThan([bound], options);
