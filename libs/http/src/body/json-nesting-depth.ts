/**
 * How deep a JSON request body may nest arrays and objects. Real bodies stay within a handful of
 * levels (freeze conditions nest `and`/`or`/`not` a few times); past this, everything that walks the
 * parsed value recursively (class-transformer, the validators, the condition checks) could overflow
 * the stack.
 */
export const MAX_JSON_NESTING_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether the text opens more than `max` arrays or objects inside one another. One loop over the
 * characters with a counter, never recursion, so it is safe on any input, well-formed or not.
 */
export function exceedsJsonNestingDepth(text: string, max = MAX_JSON_NESTING_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
