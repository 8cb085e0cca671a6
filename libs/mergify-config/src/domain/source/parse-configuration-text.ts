import type { YAMLError } from 'yaml';
import { EventSourceLocator } from './event-source-locator';
import { FAST_READING_SCHEMA, fastYamlValue } from './fast-yaml-value';
import type { Locator } from './locator';
import { parsePositionedDocument } from './positioned-document';
import type { SourcePosition } from './source-position';
import { SourceLocator } from './source-locator';

/** How many times aliases may expand while building the value: anchors in `shared` are reused a lot, bombs are not. */
const MAX_ALIAS_EXPANSIONS = 10_000;

export interface ParsedConfigurationText {
  ok: true;
  /** The document as plain data, aliases and `<<` merge keys applied; null for an empty document. */
  value: unknown;
  locator: Locator;
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
 * Most files take the fast reading, whose events also give the lines of errors and deprecations
 * (`yaml`'s positioned document is built only for the rare places they might not agree on);
 * anything the fast reading is not sure of is read by `yaml` alone.
 */
export function parseConfigurationText(text: string): ParsedConfigurationText | UnparsableConfigurationText {
  const fast = fastYamlValue(text, MAX_ALIAS_EXPANSIONS);
  if (fast) {
    const fallback = new SourceLocator(() => parsePositionedDocument(text));
    const locator = new EventSourceLocator(text, fast.events, FAST_READING_SCHEMA, fallback);
    return { ok: true, value: fast.value, locator };
  }
  const positioned = parsePositionedDocument(text);
  const { document } = positioned;
  if (document.errors.length > 0) return { ok: false, problems: document.errors.map(syntaxProblem) };
  try {
    const value = document.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS }) as unknown;
    return { ok: true, value, locator: new SourceLocator(() => positioned) };
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
