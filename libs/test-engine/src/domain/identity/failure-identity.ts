import { FAILURE_ID_NAMESPACE } from './test-identity';
import { uuid5 } from './uuid5';

/** JUnit failures without a `type` attribute still group under a name (OAS needs a string). */
export const UNKNOWN_EXCEPTION_TYPE = 'UnknownError';

/** Messages are cut before masking: a failure's identity lives in its first lines. */
const MAX_MESSAGE_LENGTH = 1000;

const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  // Paths first, so the digits and hex inside them do not leave fragments behind.
  [/(?:[A-Za-z]:)?(?:[\\/][\w.@+~-]+){2,}[\\/]?/g, '<path>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,}\b/gi, '<hex>'],
  [/[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi, '<n>'],
];

/**
 * The message with what changes from run to run masked, so that "expected 3, got 4" and "expected
 * 5, got 7" are one failure: paths (two or more segments) become `<path>`, UUIDs `<uuid>`, hex
 * numbers (`0x…`, or runs of 7+ hex digits mixing letters and digits, like commit shas and
 * addresses) `<hex>`, decimal numbers `<n>`; whitespace runs collapse to one space.
 */
export function normaliseFailureMessage(message: string): string {
  let text = message.slice(0, MAX_MESSAGE_LENGTH);
  for (const [pattern, mask] of MASKS) text = text.replace(pattern, mask);
  return text.replace(/\s+/g, ' ').trim();
}

/** uuid5 of (test id, exception type, normalised message). */
export const failureIdOf = (testId: string, exceptionType: string, message: string): string =>
  uuid5(`${testId}\n${exceptionType}\n${normaliseFailureMessage(message)}`, FAILURE_ID_NAMESPACE);
