import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fencedBlocks, headingAnchors, linkTargets } from './readme-blocks';

const root = resolve(__dirname, '../../..');
const markdownFiles = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the documentation', () => {
  it.each(markdownFiles)('%s links only to files and headings that exist', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const broken: string[] = [];
    for (const { target, line } of linkTargets(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const absolute = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURI(path));
      if (!existsSync(absolute)) {
        broken.push(`${file}:${line} → ${target} (no file ${relative(root, absolute)})`);
        continue;
      }
      if (anchor !== undefined && absolute.endsWith('.md')) {
        const anchors = headingAnchors(readFileSync(absolute, 'utf8'));
        if (!anchors.has(anchor)) broken.push(`${file}:${line} → ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(markdownFiles)('%s shows example files as they are', (file) => {
    // A block whose first line is a comment naming a file of the repository shows that file whole.
    const differing = fencedBlocks(readFileSync(join(root, file), 'utf8'))
      .map((block) => ({
        block,
        named: /^(?:#|<!--)\s*((?:docs|bench)\/\S+?)(?:\s*-->)?$/.exec(block.text.split('\n')[0]!),
      }))
      .filter(({ named }) => named !== null)
      .filter(({ block, named }) => {
        const shown = block.text.split('\n').slice(1).join('\n');
        const path = join(root, named![1]!);
        return !existsSync(path) || readFileSync(path, 'utf8').trimEnd() !== shown.trimEnd();
      })
      .map(({ block, named }) => `${file}:${block.line} does not show ${named![1]} as it is`);
    expect(differing).toEqual([]);
  });
});
