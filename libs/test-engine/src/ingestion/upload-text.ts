import { badRequest, codePointLength, storableStringProblem } from '@switchyard/kernel';

/** Names are compared and quarantined by their exact text: one no store can hold is refused. */
export function uploadedName(field: string, value: string): string {
  const problem = storableStringProblem(value);
  if (problem) throw badRequest(`A test's ${field} ${problem.message}: ${value.slice(0, 80)}`);
  return value;
}

const MAX_FREE_TEXT = 10_000;

/** NUL, and UTF-16 surrogates without their other half. */
const UNSTORABLE_CHARACTERS = new RegExp(
  `${String.fromCharCode(0)}|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`,
  'g',
);

/**
 * Messages and stack traces are shown, never matched: NULs and lone surrogates become U+FFFD and
 * the text is cut at 10,000 characters rather than refusing a whole CI run over one long trace.
 */
export function uploadedText(value: string | null): string | null {
  if (value === null) return null;
  const cleaned = value.replace(UNSTORABLE_CHARACTERS, '\uFFFD');
  return codePointLength(cleaned, MAX_FREE_TEXT) > MAX_FREE_TEXT
    ? Array.from(cleaned).slice(0, MAX_FREE_TEXT).join('')
    : cleaned;
}
