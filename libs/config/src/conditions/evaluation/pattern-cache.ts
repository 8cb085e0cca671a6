import picomatch from 'picomatch';
import { expandGlob } from '../syntax/values/glob';
import { EvaluationError } from './judgement';

/** Regexes and globs compiled once per pattern (bounded, so hostile configurations cannot grow it forever). */
const regexCache = new Map<string, RegExp>();
const globCache = new Map<string, (path: string) => boolean>();

export function compiledRegex(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let regex = regexCache.get(key);
  if (!regex) {
    regex = new RegExp(source, flags);
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(key, regex);
  }
  return regex;
}

export function compiledGlob(pattern: string): (path: string) => boolean {
  let matcher = globCache.get(pattern);
  if (!matcher) {
    const expanded = expandGlob(pattern);
    if (!expanded.ok) throw new EvaluationError(expanded.detail);
    matcher = picomatch(expanded.patterns, { dot: true, nobrace: true });
    if (globCache.size > 1000) globCache.clear();
    globCache.set(pattern, matcher);
  }
  return matcher;
}
