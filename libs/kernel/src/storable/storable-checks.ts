import { invalidField } from '../domain-error';
import { MAX_STORABLE_INSTANT_ISO, MIN_STORABLE_INSTANT_ISO, isStorableInstant } from './storable-instant';
import { STORABLE_STRING_MAX_CODE_POINTS, storableStringProblem } from './storable-string';

/**
 * Guards for deciders: a value outside the storable definition is refused as an InvalidFieldError
 * naming the field, before any event exists, so nothing unstorable is ever appended.
 */
export function checkStorableString(
  field: string,
  text: string,
  maxCodePoints = STORABLE_STRING_MAX_CODE_POINTS,
): string {
  const problem = storableStringProblem(text, maxCodePoints);
  if (problem) throw invalidField(field, `\`${field}\` ${problem.message}`);
  return text;
}

export function checkStorableInstant(field: string, instant: Date, context = ''): Date {
  if (!isStorableInstant(instant)) {
    throw invalidField(
      field,
      `\`${field}\` must fall between ${MIN_STORABLE_INSTANT_ISO} and ${MAX_STORABLE_INSTANT_ISO}${context}`,
    );
  }
  return instant;
}
