/** A fenced code block of a markdown file: its language, where it starts, and its text. */
export interface FencedBlock {
  language: string;
  /** 1-based line of the opening fence. */
  line: number;
  text: string;
}

/**
 * The fenced blocks of a markdown text, in order. A fence may be indented (a block inside a list
 * item); the block's lines lose that indentation.
 */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, fence, language] = opening;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && lines[end]!.trim() !== fence) {
      const line = lines[end]!;
      body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line.trimStart());
      end++;
    }
    if (end === lines.length) throw new Error(`the fence opened on line ${index + 1} is never closed`);
    blocks.push({ language: language!, line: index + 1, text: body.join('\n') });
    index = end;
  }
  return blocks;
}

/**
 * The HTTP statuses outside 2xx that a shell block says its commands answer, in order: a whole-line
 * comment that starts with the status (`# 404 {"detail": …}`). Statuses in 2xx are shown the same
 * way but are not listed: only answers that are not successes need the README's word.
 */
export function shownFailureStatuses(shell: string): number[] {
  const statuses: number[] = [];
  for (const line of shell.split('\n')) {
    const shown = /^\s*#\s*([1-5]\d\d)(?=\s|$|[;,:])/.exec(line);
    if (shown && !shown[1]!.startsWith('2')) statuses.push(Number(shown[1]));
  }
  return statuses;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped but `-` and `_`, spaces to `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown text's headings, outside fenced blocks, duplicates numbered as GitHub does. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s*(`{3,})/.exec(line);
    if (fenceMark) {
      if (fence === null) fence = fenceMark[1]!;
      else if (line.trim() === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The link targets of a markdown text outside fenced blocks and code spans: `[text](target)`. */
export function linkTargets(markdown: string): { target: string; line: number }[] {
  const targets: { target: string; line: number }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((line, index) => {
    const fenceMark = /^\s*(`{3,})/.exec(line);
    if (fenceMark) {
      if (fence === null) fence = fenceMark[1]!;
      else if (line.trim() === fence) fence = null;
      return;
    }
    if (fence !== null) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const link of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      targets.push({ target: link[1]!, line: index + 1 });
  });
  return targets;
}

/**
 * The output a shell block shows: each whole-line comment is a line its commands print, `…`
 * standing for any text (a comment of `…` alone, for lines left out, shows nothing). Each comes
 * with its line in the markdown file and a pattern for the printed line, trailing spaces ignored.
 */
export function shownOutput(block: FencedBlock): { line: number; shown: string; pattern: RegExp }[] {
  const shown: { line: number; shown: string; pattern: RegExp }[] = [];
  block.text.split('\n').forEach((text, index) => {
    const comment = /^\s*#\s?(.*?)\s*$/.exec(text);
    if (!comment || comment[1] === '…' || comment[1] === '') return;
    const parts = comment[1]!.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    shown.push({
      line: block.line + 1 + index,
      shown: comment[1]!,
      pattern: new RegExp(`^${parts.join('.*')}$`),
    });
  });
  return shown;
}
