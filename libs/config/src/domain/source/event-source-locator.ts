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

interface ScalarNode {
  kind: 'scalar';
  start: Start;
}
interface SequenceNode {
  kind: 'sequence';
  start: Start;
  items: TreeNode[];
}
interface MappingNode {
  kind: 'mapping';
  start: Start;
  /** Each key as `yaml`'s locator names it: the text of the value the key resolves to. */
  keys: string[];
  keyStarts: Start[];
  values: TreeNode[];
}
type TreeNode = ScalarNode | SequenceNode | MappingNode;

/**
 * Finds paths of the validated value in the text from js-yaml's events, which the fast reading
 * already has, with the positions `yaml`'s document would give (`SourceLocator`): it walks the same
 * way, through aliases and `<<` merge keys, own keys first. Where it is not sure of `yaml`'s answer
 * it asks `fallback`, which builds `yaml`'s document (several times the cost of the whole
 * validation on a large file): a deprecation or an error no longer costs a second parse.
 */
export class EventSourceLocator implements Locator {
  private root: TreeNode | undefined;
  private lines: LineCounter | undefined;

  constructor(
    private readonly text: string,
    private readonly events: readonly Event[],
    private readonly schema: Schema,
    private readonly fallback: Locator,
  ) {}

  locate(path: readonly PathSegment[]): SourcePosition | null {
    this.root ??= buildTree(this.events, this.text, this.schema);
    let node = this.root;
    let offset = node.start;
    for (const segment of path) {
      const next = child(node, segment);
      if (next === undefined) break;
      offset = next.offset;
      node = next.node;
    }
    if (offset === null) return this.fallback.locate(path);
    const { line, col } = this.lineCounter().linePos(offset);
    return { line, column: col };
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

function child(node: TreeNode, segment: PathSegment): { node: TreeNode; offset: Start } | undefined {
  if (node.kind === 'sequence' && typeof segment === 'number') {
    const item = node.items[segment];
    return item === undefined ? undefined : { node: item, offset: item.start };
  }
  if (node.kind !== 'mapping') return undefined;
  const key = String(segment);
  const own = node.keys.indexOf(key);
  if (own >= 0) return { node: node.values[own], offset: node.keyStarts[own] };
  for (let index = 0; index < node.keys.length; index += 1) {
    if (node.keys[index] !== MERGE_KEY) continue;
    const merged = node.values[index];
    const sources = merged.kind === 'sequence' ? merged.items : [merged];
    for (const source of sources) {
      const found = child(source, segment);
      if (found) return found;
    }
  }
  return undefined;
}

/** The document's tree of nodes with their starts, aliases replaced by the nodes they name. */
function buildTree(events: readonly Event[], text: string, schema: Schema): TreeNode {
  const anchors = new Map<string, TreeNode>();
  /** Open nodes (null for the document); a mapping's key waits beside it for its value. */
  const open: Array<{ node: SequenceNode | MappingNode | null; pendingKey: ScalarEvent | null }> = [];
  let root: TreeNode | undefined;

  const attach = (node: TreeNode, event: Event): void => {
    const parent = open[open.length - 1];
    if (parent === undefined || parent.node === null) root ??= node;
    else if (parent.node.kind === 'sequence') parent.node.items.push(node);
    else if (parent.pendingKey === null) {
      // The fast reading only takes scalar keys.
      parent.pendingKey = event as ScalarEvent;
    } else {
      parent.node.keys.push(keyText(parent.pendingKey, text, schema));
      parent.node.keyStarts.push(scalarStart(parent.pendingKey, text));
      parent.node.values.push(node);
      parent.pendingKey = null;
    }
  };
  const name = (event: { anchorStart: number; anchorEnd: number }) =>
    text.slice(event.anchorStart, event.anchorEnd);

  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        open.push({ node: null, pendingKey: null });
        break;
      case EVENT_ID.SCALAR: {
        const node: ScalarNode = { kind: 'scalar', start: scalarStart(event, text) };
        if (event.anchorStart >= 0) anchors.set(name(event), node);
        attach(node, event);
        break;
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        const node: SequenceNode | MappingNode =
          event.type === EVENT_ID.SEQUENCE
            ? { kind: 'sequence', start: event.start, items: [] }
            : { kind: 'mapping', start: event.start, keys: [], keyStarts: [], values: [] };
        if (event.anchorStart >= 0) anchors.set(name(event), node);
        attach(node, event);
        open.push({ node, pendingKey: null });
        break;
      }
      case EVENT_ID.ALIAS: {
        const target = anchors.get(name(event));
        // The fast reading refuses aliases to unknown anchors.
        if (target !== undefined) attach(target, event);
        break;
      }
      case EVENT_ID.POP: {
        const closed = open.pop()?.node;
        if (closed?.kind === 'mapping') settleMappingStart(closed, text);
        break;
      }
      default:
        break;
    }
  }
  return root ?? { kind: 'scalar', start: null };
}

/**
 * `yaml` starts a block mapping at its first key's content, after any anchor on that key or the
 * `?` of an explicit key; js-yaml before them. Only the start both agree on is kept.
 */
function settleMappingStart(node: MappingNode, text: string): void {
  if (node.start === null || text[node.start] === '{') return;
  if (node.keyStarts[0] !== node.start) node.start = null;
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
