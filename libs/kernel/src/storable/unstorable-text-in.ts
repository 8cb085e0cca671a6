import { unstorableCharacterProblem, type UnstorableCharacterProblem } from './storable-string';

export interface UnstorableTextFound {
  /** Where it is, as `a.b[2].c` (the value itself: the empty string). */
  path: string;
  /** True when an object key is at fault rather than a value. */
  inKey: boolean;
  problem: UnstorableCharacterProblem;
}

/**
 * A string of a JSON value, key or value, that no store can hold (NUL, a lone surrogate), in
 * document order, or null. For bodies kept whole or in parts that no field-by-field validation covers (the sandbox
 * forge's requests, a webhook's facts): jsonb refuses such a key as surely as such a value.
 */
export function findUnstorableText(value: unknown): UnstorableTextFound | null {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = unstorableCharacterProblem(current);
      if (problem) return { path, inKey: false, problem };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        pending.push({ value: current[index], path: `${path}[${index}]` });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        const childPath = path === '' ? key : `${path}.${key}`;
        const problem = unstorableCharacterProblem(key);
        if (problem) return { path: childPath, inKey: true, problem };
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return null;
}
