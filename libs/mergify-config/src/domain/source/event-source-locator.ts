import {
  constructFromEvents,
  EVENT_ID,
  type Event,
  getScalarValue,
  SCALAR_STYLE,
  type ScalarEvent,
  type Schema,
} from 'js-yaml';
import { LineCounter } from 'yaml';
import type { PathSegment } from './configuration-path';
import type { Locator } from './locator';
import type { SourcePosition } from './source-position';

const MERGE_KEY = '<<';
/** Plain scalars the core schema may read as something other than text: numbers, booleans. */
const MAYBE_NOT_TEXT = /^(?:[-+.~0-9]|true$|True$|TRUE$|false$|False$|FALSE$)/;
const DOCUMENT_EVENT: Event = {
  type: EVENT_ID.DOCUMENT,
  explicitStart: false,
  explicitEnd: false,
  directives: [],
};
const POP_EVENT: Event = { type: EVENT_ID.POP };

/**
 * Where `yaml` would start a node, or null where this reading is not sure to agree with it (block
 * scalars, whose range starts at their header; empty values; block mappings whose first key has
 * properties). A null is only a problem when the position is the one asked for.
 */
type Start = number | null;

/** The events' structure: where each collection ends, and the node each alias names. */
interface EventIndex {
  /** For a document or collection event, the index of its closing event; for others, its own. */
  ends: Int32Array;
  /** The event index of the node an alias names: the last one anchored so before the alias. */
  aliasTargets: Map<number, number>;
}

/**
 * Finds paths of the validated value in the text from js-yaml's events, which the fast reading
 * already has, with the positions `yaml`'s document would give (`SourceLocator`): it walks the same
 * way, through aliases and `<<` merge keys, own keys first. Where it is not sure of `yaml`'s answer
 * it asks `fallback`, which builds `yaml`'s document (several times the cost of the whole
 * validation on a large file): a deprecation or an error no longer costs a second parse. It walks
 * the flat event list itself, skipping over collections, so no tree of the document is built.
 */
export class EventSourceLocator implements Locator {
  private index: EventIndex | undefined;
  private lines: LineCounter | undefined;

  constructor(
    private readonly text: string,
    private readonly events: readonly Event[],
    private readonly schema: Schema,
    private readonly fallback: Locator,
  ) {}

  locate(path: readonly PathSegment[]): SourcePosition | null {
    this.index ??= indexEvents(this.events, this.text);
    // The document event is first; its node follows.
    let node = this.resolve(1);
    let offset = this.start(node);
    for (const segment of path) {
      const next = this.child(node, segment);
      if (next === undefined) break;
      offset = next.offset;
      node = next.node;
    }
    if (offset === null) return this.fallback.locate(path);
    const { line, col } = this.lineCounter().linePos(offset);
    return { line, column: col };
  }

  private child(node: number, segment: PathSegment): { node: number; offset: Start } | undefined {
    const event = this.events[node];
    if (event?.type === EVENT_ID.SEQUENCE && typeof segment === 'number') {
      const item = this.itemsOf(node)[segment];
      if (item === undefined) return undefined;
      const resolved = this.resolve(item);
      return { node: resolved, offset: this.start(resolved) };
    }
    if (event?.type !== EVENT_ID.MAPPING) return undefined;
    const key = String(segment);
    const pairs = this.itemsOf(node);
    const keys: string[] = [];
    for (let pair = 0; pair < pairs.length; pair += 2) {
      const keyEvent = this.events[pairs[pair]!] as ScalarEvent;
      keys.push(keyText(keyEvent, this.text, this.schema));
      if (keys[keys.length - 1] === key)
        return { node: this.resolve(pairs[pair + 1]!), offset: scalarStart(keyEvent, this.text) };
    }
    for (let pair = 0; pair < pairs.length; pair += 2) {
      if (keys[pair / 2] !== MERGE_KEY) continue;
      const merged = this.resolve(pairs[pair + 1]!);
      const sources =
        this.events[merged]?.type === EVENT_ID.SEQUENCE
          ? this.itemsOf(merged).map((item) => this.resolve(item))
          : [merged];
      for (const source of sources) {
        const found = this.child(source, segment);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The events that start the entries of a collection: items, or keys and values in turn. */
  private itemsOf(collection: number): number[] {
    const { ends } = this.index!;
    const items: number[] = [];
    for (let entry = collection + 1; entry < ends[collection]!; entry = ends[entry]! + 1) items.push(entry);
    return items;
  }

  private resolve(node: number): number {
    return this.events[node]?.type === EVENT_ID.ALIAS ? (this.index!.aliasTargets.get(node) ?? -1) : node;
  }

  private start(node: number): Start {
    const event = this.events[node];
    switch (event?.type) {
      case EVENT_ID.SCALAR:
        return scalarStart(event, this.text);
      case EVENT_ID.SEQUENCE:
        return event.start;
      case EVENT_ID.MAPPING: {
        // `yaml` starts a block mapping at its first key's content, after any anchor on that key or
        // the `?` of an explicit key; js-yaml before them. Only a start both agree on is kept.
        if (this.text[event.start] === '{') return event.start;
        const firstKey = this.events[node + 1];
        return firstKey?.type === EVENT_ID.SCALAR && scalarStart(firstKey, this.text) === event.start
          ? event.start
          : null;
      }
      default:
        return null;
    }
  }

  /** `yaml`'s own line index, fed the line starts its parser would report. */
  private lineCounter(): LineCounter {
    if (this.lines === undefined) {
      const lines = new LineCounter();
      lines.addNewLine(0);
      for (let at = this.text.indexOf('\n'); at >= 0; at = this.text.indexOf('\n', at + 1))
        lines.addNewLine(at + 1);
      this.lines = lines;
    }
    return this.lines;
  }
}

function indexEvents(events: readonly Event[], text: string): EventIndex {
  const ends = new Int32Array(events.length);
  const aliasTargets = new Map<number, number>();
  const anchors = new Map<string, number>();
  const open: number[] = [];
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index]!;
    ends[index] = index;
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        open.push(index);
        break;
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING:
      case EVENT_ID.SCALAR:
        if (event.anchorStart >= 0) anchors.set(text.slice(event.anchorStart, event.anchorEnd), index);
        if (event.type !== EVENT_ID.SCALAR) open.push(index);
        break;
      case EVENT_ID.ALIAS: {
        // The fast reading refuses aliases to unknown anchors.
        const target = anchors.get(text.slice(event.anchorStart, event.anchorEnd));
        if (target !== undefined) aliasTargets.set(index, target);
        break;
      }
      case EVENT_ID.POP: {
        const opened = open.pop();
        if (opened !== undefined) ends[opened] = index;
        break;
      }
      default:
        break;
    }
  }
  return { ends, aliasTargets };
}

/** Where `yaml` starts a scalar: its first character, the opening quote for quoted text. */
function scalarStart(event: ScalarEvent, text: string): Start {
  if (event.valueStart < 0) return null;
  switch (event.style) {
    case SCALAR_STYLE.PLAIN:
      return event.valueStart;
    case SCALAR_STYLE.SINGLE_QUOTED:
      return text[event.valueStart - 1] === "'" ? event.valueStart - 1 : null;
    case SCALAR_STYLE.DOUBLE_QUOTED:
      return text[event.valueStart - 1] === '"' ? event.valueStart - 1 : null;
    default:
      return null;
  }
}

/** A key as `yaml`'s locator reads it: `String` of its value, `<<` for the merge key. */
function keyText(event: ScalarEvent, text: string, schema: Schema): string {
  const written = getScalarValue(text, event);
  if (event.style !== SCALAR_STYLE.PLAIN || !MAYBE_NOT_TEXT.test(written)) return written;
  const [value] = constructFromEvents([DOCUMENT_EVENT, event, POP_EVENT], { source: text, schema });
  return String(value);
}
