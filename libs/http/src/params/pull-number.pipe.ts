import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { issueShapes } from '../validation/issue-shapes';
import { issueAt, RequestValidationException } from '../validation/validation-issue';

export const PULL_NUMBER_MAX = 9223372036854775807n;
const INTEGER = /^[+-]?\d+$/;

/**
 * Pull request numbers are integers 0..9223372036854775807 (spec "Limits"): beyond 2^53 a Number
 * would round, so they are parsed as bigint and stay bigint. `@Param('number', PullNumberPipe)`.
 */
@Injectable()
export class PullNumberPipe implements PipeTransform<unknown, bigint> {
  transform(value: unknown, metadata: ArgumentMetadata): bigint {
    return parsePullNumber(value, metadata.data ?? 'number');
  }
}

export function parsePullNumber(value: unknown, name: string): bigint {
  const loc = ['path', name];
  if (typeof value !== 'string' || !INTEGER.test(value)) {
    throw new RequestValidationException([issueAt(loc, value ?? null, issueShapes.intParsing())]);
  }
  const number = BigInt(value);
  if (number < 0n)
    throw new RequestValidationException([issueAt(loc, value, issueShapes.greaterThanEqual(0))]);
  if (number > PULL_NUMBER_MAX) {
    throw new RequestValidationException([issueAt(loc, value, issueShapes.lessThanEqual(PULL_NUMBER_MAX))]);
  }
  return number;
}
