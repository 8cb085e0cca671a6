import { isIanaTimeZone } from '@switchyard/kernel';
import type { ValidationOptions } from 'class-validator';
import { defineRule } from '../define-rule';
import { RANK_FORMAT } from '../issue-describers';
import { issueShapes } from '../issue-shapes';

const ianaTimeZone = defineRule<[]>({
  name: 'isIanaTimeZone',
  rank: RANK_FORMAT,
  test: (value) => isIanaTimeZone(value),
  describe: (value) =>
    typeof value === 'string'
      ? issueShapes.valueError(`'${value}' is not a valid IANA timezone (e.g. 'Europe/Paris', 'UTC')`)
      : issueShapes.stringType(),
});

/** An IANA zone name, as luxon (and so the freeze scheduler) understands it. */
export const IsIanaTimeZone = (options?: ValidationOptions): PropertyDecorator => ianaTimeZone([], options);
