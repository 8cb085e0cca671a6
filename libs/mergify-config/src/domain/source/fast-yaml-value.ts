import {
  COLLECTION_STYLE,
  constructFromEvents,
  CORE_SCHEMA,
  EVENT_ID,
  type Event,
  mergeTag,
  parseEvents,
  SCALAR_STYLE_PLAIN,
} from 'js-yaml';
import { aliasExpansionWithin } from './alias-expansion-bound';
import { hasUnsureText } from './unsure-text';

/** YAML 1.2 core with `<<` merge keys, as `yaml` reads `.mergify.yml`. */
export const FAST_READING_SCHEMA = CORE_SCHEMA.withTags(mergeTag);
/** `yaml` refuses an implicit key whose `:` is more than 1024 characters after its start. */
const LONGEST_SURE_KEY = 1000;
/** Plain scalars the core schema reads as null: `yaml` names such a key `""`, js-yaml `"null"`. */
const NULL_SPELLINGS = new Set(['', '~', 'null', 'Null', 'NULL']);
/** Characters `yaml` refuses at the start of a plain scalar and js-yaml accepts there. */
const RESERVED_PLAIN_STARTS = new Set([',', ']', '}', '@', '`']);

/**
 * The document's value read by js-yaml, several times faster than `yaml` on large files, with the
 * events it was built from (they locate paths in the text), or undefined whenever `yaml` might read
 * the text differently — then `yaml` decides, as before.
 * Taken only when js-yaml accepts the text (so syntax errors, duplicate keys and empty documents
 * go to `yaml` and keep its messages) and the text has none of the features where the two differ
 * or that `yaml` guards: directives, explicit tags, more than one document, keys that are null,
 * collections, aliases or very long, and aliases that might expand past `yaml`'s limit.
 */
export function fastYamlValue(
  text: string,
  maxAliasExpansions: number,
): { value: unknown; events: Event[] } | undefined {
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return undefined;
  }
  if (!withinSureFeatures(events, text) || !aliasExpansionWithin(events, text, maxAliasExpansions))
    return undefined;
  try {
    return { value: constructFromEvents(events, { source: text, schema: FAST_READING_SCHEMA })[0], events };
  } catch {
    return undefined;
  }
}

function withinSureFeatures(events: readonly Event[], text: string): boolean {
  if (hasUnsureText(text)) return false;
  let documents = 0;
  /** Per open node: for a mapping, how many keys and values it has so far; -1 otherwise. */
  const entries: number[] = [];
  for (const event of events) {
    if (event.type === EVENT_ID.POP) {
      entries.pop();
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      documents += 1;
      if (event.directives.length > 0) return false;
      entries.push(-1);
      continue;
    }
    if (event.type !== EVENT_ID.ALIAS && event.tagStart >= 0) return false;
    const parent = entries.length - 1;
    const inMapping = parent >= 0 && entries[parent] >= 0;
    const isKey = inMapping && entries[parent] % 2 === 0;
    if (inMapping) entries[parent] += 1;
    if (isKey && !isSureKey(event, text)) return false;
    if (
      event.type === EVENT_ID.SCALAR &&
      event.style === SCALAR_STYLE_PLAIN &&
      RESERVED_PLAIN_STARTS.has(text[event.valueStart] ?? '')
    )
      return false;
    // `k: a: b` is a mapping nested in a compact one, which `yaml` refuses: a block mapping that
    // is a value must start its own line.
    if (
      event.type === EVENT_ID.MAPPING &&
      inMapping &&
      !isKey &&
      event.style === COLLECTION_STYLE.BLOCK &&
      !startsOwnLine(text, event.start)
    )
      return false;
    if (event.type === EVENT_ID.MAPPING) entries.push(0);
    else if (event.type === EVENT_ID.SEQUENCE) entries.push(-1);
  }
  return documents === 1;
}

function startsOwnLine(text: string, offset: number): boolean {
  for (let index = offset - 1; index >= 0 && text[index] !== '\n'; index -= 1)
    if (text[index] !== ' ') return false;
  return true;
}

function isSureKey(event: Event, text: string): boolean {
  if (event.type !== EVENT_ID.SCALAR) return false;
  if (event.valueEnd - event.valueStart > LONGEST_SURE_KEY) return false;
  if (event.anchorStart >= 0 && event.valueStart - event.anchorStart > 64) return false;
  return (
    event.style !== SCALAR_STYLE_PLAIN || !NULL_SPELLINGS.has(text.slice(event.valueStart, event.valueEnd))
  );
}
