import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const {
  $comment: _comment,
  $testsMayAlsoImport: _tests,
  ...order
} = JSON.parse(readFileSync(join(ROOT, 'tools/lib-order.json'), 'utf8')) as Record<string, string[]>;
const libs = readdirSync(join(ROOT, 'libs'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const map = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe('the map of the libs', () => {
  it('names every lib in the lint order and in docs/architecture.md, and nothing that is gone', () => {
    expect(Object.keys(order).sort()).toEqual([...libs].sort());
    for (const lib of libs)
      expect({ lib, mapped: new RegExp(`^\\|\\s*\`${lib}\`\\s*\\|`, 'm').test(map) }).toEqual({
        lib,
        mapped: true,
      });
  });

  it('declares only libs that exist, and no cycle', () => {
    for (const [lib, below] of Object.entries(order))
      for (const dependency of below)
        expect({ lib, dependency, exists: dependency in order }).toMatchObject({ exists: true });
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (lib: string, path: string[]): void => {
      if (done.has(lib)) return;
      if (visiting.has(lib)) throw new Error(`cycle in tools/lib-order.json: ${[...path, lib].join(' → ')}`);
      visiting.add(lib);
      for (const dependency of order[lib] ?? []) visit(dependency, [...path, lib]);
      visiting.delete(lib);
      done.add(lib);
    };
    for (const lib of Object.keys(order)) visit(lib, []);
  });
});
