import { translateGlob } from '../syntax/values/glob-pattern';
import { compileLinearRegex, isPatternError, type LinearRegex } from '@switchyard/kernel';
import { EvaluationError } from './judgement';

/**
 * Regexes and globs compiled once per pattern (bounded, so hostile configurations cannot grow it
 * forever), all for RE2: matching takes time linear in the text, whatever the pattern.
 */
const regexCache = new Map<string, LinearRegex>();
const globCache = new Map<string, LinearRegex>();
const MAX_CACHED = 1000;

/** Compiled for matching; RE2's refusal (which validation should have caught) is the condition's error. */
function compile(source: string, flags: string): LinearRegex {
  try {
    return compileLinearRegex(source, flags);
  } catch (error) {
    if (!isPatternError(error)) throw error;
    throw new EvaluationError(
      `Invalid regular expression: ${error.message.replace(/^error parsing regexp: /, '')}`,
    );
  }
}

export function compiledRegex(source: string, flags: string): LinearRegex {
  const key = `${flags}/${source}`;
  let regex = regexCache.get(key);
  if (!regex) {
    regex = compile(source, flags);
    if (regexCache.size > MAX_CACHED) regexCache.clear();
    regexCache.set(key, regex);
  }
  return regex;
}

export function compiledGlob(pattern: string): (path: string) => boolean {
  let regex = globCache.get(pattern);
  if (!regex) {
    const translated = translateGlob(pattern);
    if (!translated.ok) throw new EvaluationError(translated.detail);
    regex = compile(translated.source, 's');
    if (globCache.size > MAX_CACHED) globCache.clear();
    globCache.set(pattern, regex);
  }
  const matcher = regex;
  return (path) => matcher.test(path);
}
