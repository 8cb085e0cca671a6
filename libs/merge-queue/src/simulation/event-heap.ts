/** A min-heap of timed items; ties keep insertion order, so a run is fully deterministic. */
export class EventHeap<T> {
  private readonly items: Array<{ at: number; order: number; item: T }> = [];
  private inserted = 0;

  get size(): number {
    return this.items.length;
  }

  push(at: number, item: T): void {
    const entry = { at, order: this.inserted++, item };
    const items = this.items;
    items.push(entry);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(items[index]!, items[parent]!)) break;
      [items[index], items[parent]] = [items[parent]!, items[index]!];
      index = parent;
    }
  }

  peekTime(): number | null {
    return this.items[0]?.at ?? null;
  }

  pop(): { at: number; item: T } | null {
    const items = this.items;
    if (items.length === 0) return null;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < items.length && before(items[left]!, items[smallest]!)) smallest = left;
        if (right < items.length && before(items[right]!, items[smallest]!)) smallest = right;
        if (smallest === index) break;
        [items[index], items[smallest]] = [items[smallest]!, items[index]!];
        index = smallest;
      }
    }
    return { at: top.at, item: top.item };
  }
}

const before = (a: { at: number; order: number }, b: { at: number; order: number }): boolean =>
  a.at < b.at || (a.at === b.at && a.order < b.order);
