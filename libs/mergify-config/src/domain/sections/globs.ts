import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import { readString } from '../schema/readers';

/** Data-types "Globs": brace groups nest at most 32 deep; an unbalanced brace is an error. */
export const MAX_BRACE_NESTING = 32;
export const MAX_BRACE_ALTERNATIVES = 128;

/** A file glob (`**`, `*`, `?`, `[seq]`, `{a,b}`), with its brace structure checked. */
export function readGlob(value: unknown, at: Cursor): string | Invalid {
  const glob = readString(value, at);
  if (glob === INVALID) return INVALID;
  const problem = braceProblem(glob);
  return problem ? at.fail(`invalid glob '${glob}': ${problem}`) : glob;
}

function braceProblem(glob: string): string | null {
  const alternatives: number[] = [];
  let inClass = false;
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '{') {
      alternatives.push(1);
      if (alternatives.length > MAX_BRACE_NESTING)
        return `braces nest more than ${MAX_BRACE_NESTING} levels deep`;
    } else if (char === ',' && alternatives.length > 0) {
      alternatives[alternatives.length - 1] += 1;
      if (alternatives[alternatives.length - 1] > MAX_BRACE_ALTERNATIVES)
        return `a brace group has more than ${MAX_BRACE_ALTERNATIVES} alternatives`;
    } else if (char === '}') {
      if (alternatives.pop() === undefined) return "'}' without a matching '{'";
    }
  }
  return alternatives.length > 0 ? "'{' without a matching '}'" : null;
}
