import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import type { SourcePosition } from './source-position';
import { SourceLocator } from './source-locator';

/** How many times aliases may expand while building the value: anchors in `shared` are reused a lot, bombs are not. */
const MAX_ALIAS_EXPANSIONS = 10_000;

export interface ParsedConfigurationText {
  ok: true;
  /** The document as plain data, aliases and `<<` merge keys applied; null for an empty document. */
  value: unknown;
  locator: SourceLocator;
}

export interface YamlSyntaxProblem {
  message: string;
  position: SourcePosition | null;
}

export interface UnparsableConfigurationText {
  ok: false;
  problems: YamlSyntaxProblem[];
}

/**
 * YAML 1.1-style parsing as Mergify reads `.mergify.yml`: anchors, aliases and `<<` merge keys
 * allowed; duplicate keys refused (a later key would silently replace an earlier rule otherwise).
 */
export function parseConfigurationText(text: string): ParsedConfigurationText | UnparsableConfigurationText {
  const lines = new LineCounter();
  const document = parseDocument(text, { merge: true, lineCounter: lines, prettyErrors: true });
  if (document.errors.length > 0) return { ok: false, problems: document.errors.map(syntaxProblem) };
  try {
    const value = document.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS }) as unknown;
    return { ok: true, value, locator: new SourceLocator(document, lines) };
  } catch (error) {
    // toJS refuses alias expansion past the limit (a "billion laughs" document).
    return { ok: false, problems: [{ message: (error as Error).message, position: null }] };
  }
}

function syntaxProblem(error: YAMLError): YamlSyntaxProblem {
  const at = error.linePos?.[0];
  // The pretty message repeats the position and a source excerpt; keep the first line, the cause.
  const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return { message, position: at ? { line: at.line, column: at.col } : null };
}
