import { isAlias, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { PathSegment } from './configuration-path';
import type { Locator } from './locator';
import type { PositionedDocument } from './positioned-document';
import type { SourcePosition } from './source-position';

const MERGE_KEY = '<<';

/**
 * Finds where a path of the validated value sits in the YAML text. It walks the document the way
 * `toJS` built the value (through aliases and `<<` merge keys), so an error inside a `shared`
 * anchor used by a rule points at the anchor's text, which is where the user must fix it. Only
 * called for errors and deprecations, so validation pays nothing for it; when the value came from
 * the fast reading, only for the places `EventSourceLocator` is not sure of, and the positioned
 * document is built on the first such call.
 */
export class SourceLocator implements Locator {
  private positioned: PositionedDocument | undefined;

  constructor(private readonly read: () => PositionedDocument) {}

  /** The position of the value at `path`, or of the nearest ancestor that exists in the text. */
  locate(path: readonly PathSegment[]): SourcePosition | null {
    let node: unknown = this.resolve(this.source().document.contents);
    let offset = rangeStart(node);
    for (const segment of path) {
      const next = this.child(node, segment);
      if (next === undefined) break;
      offset = next.offset ?? offset;
      node = next.node;
    }
    if (offset === null) return null;
    const { line, col } = this.source().lines.linePos(offset);
    return { line, column: col };
  }

  private child(node: unknown, segment: PathSegment): { node: unknown; offset: number | null } | undefined {
    if (isSeq(node) && typeof segment === 'number') {
      const item = this.resolve(node.items[segment]);
      return item === undefined ? undefined : { node: item, offset: rangeStart(item) };
    }
    if (isMap(node)) {
      const key = String(segment);
      // Own keys win over merged ones, as in YAML 1.1 merge semantics.
      for (const pair of node.items) {
        if (isPair(pair) && scalarText(pair.key) === key) {
          // The key's line, not the value's: a block value starts on the next line, and an
          // unknown key is the key itself.
          return { node: this.resolve(pair.value), offset: rangeStart(pair.key) };
        }
      }
      for (const pair of node.items) {
        if (!isPair(pair) || scalarText(pair.key) !== MERGE_KEY) continue;
        const merged = this.resolve(pair.value);
        const sources = isSeq(merged) ? merged.items.map((item) => this.resolve(item)) : [merged];
        for (const source of sources) {
          const found = this.child(source, segment);
          if (found) return found;
        }
      }
    }
    return undefined;
  }

  private source(): PositionedDocument {
    this.positioned ??= this.read();
    return this.positioned;
  }

  private resolve(node: unknown): unknown {
    let current = node;
    for (let hops = 0; isAlias(current) && hops < 64; hops += 1)
      current = current.resolve(this.source().document);
    return current;
  }
}

/** A key's text; with `merge: true` the `<<` key's value is a symbol, its source is `<<`. */
function scalarText(node: unknown): string | undefined {
  if (!isScalar(node)) return undefined;
  return typeof node.value === 'symbol' ? node.source : String(node.value);
}

function rangeStart(node: unknown): number | null {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : null;
}
