import type { ValidationOptions } from 'class-validator';
import { isUuid } from '@switchyard/kernel';
import { defineRule } from '../define-rule';
import { RANK_FORMAT } from '../issue-describers';
import { issueShapes } from '../issue-shapes';

const uuid = defineRule<[]>({
  name: 'isUuidString',
  rank: RANK_FORMAT,
  test: (value) => typeof value === 'string' && isUuid(value),
  describe: (value) => (typeof value === 'string' ? issueShapes.uuidParsing() : issueShapes.uuidType()),
});

/**
 * A UUID of any version in 8-4-4-4-12 form, reported as pydantic's `uuid_parsing`. Compare ids
 * lower-cased: the CLI lower-cases them, a hand-written request may not.
 */
export const IsUuid = (options?: ValidationOptions): PropertyDecorator => uuid([], options);
