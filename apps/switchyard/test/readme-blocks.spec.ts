import {
  fencedBlocks,
  headingAnchor,
  headingAnchors,
  linkTargets,
  shownFailureStatuses,
  shownOutput,
} from './readme-blocks';

describe('reading the README', () => {
  it('finds fenced blocks in order, with their language and line, indented ones included', () => {
    const markdown = [
      'Intro',
      '```sh',
      'echo one',
      '```',
      '- an item:',
      '',
      '  ```sh',
      '  curl -fsS x \\',
      '    -d y',
      '  ```',
      '```console',
      '$ npm start',
      '```',
    ].join('\n');
    expect(fencedBlocks(markdown)).toEqual([
      { language: 'sh', line: 2, text: 'echo one' },
      { language: 'sh', line: 7, text: 'curl -fsS x \\\n  -d y' },
      { language: 'console', line: 11, text: '$ npm start' },
    ]);
    expect(() => fencedBlocks('```sh\necho never closed')).toThrow('never closed');
  });

  it('lists the statuses outside 2xx a block shows, on comment lines that start with them', () => {
    const shell = [
      'curl -fsS -X PUT x   # 404 in a trailing comment is not a line of its own',
      '# {"paused":true}',
      '# 204',
      '# {"detail":"The merge queue is not paused"}',
      '# 404',
      '# 422 {"detail":[…]}',
      '# 4040 is no status',
      '#   409',
    ].join('\n');
    expect(shownFailureStatuses(shell)).toEqual([404, 422, 409]);
  });

  it('names headings as GitHub anchors them, duplicates numbered, fenced lines ignored', () => {
    expect(headingAnchor('`bench:engine` — reaction time and code-host budget')).toBe(
      'benchengine--reaction-time-and-code-host-budget',
    );
    expect(headingAnchor('Pausing the queue and scheduled freezes')).toBe(
      'pausing-the-queue-and-scheduled-freezes',
    );
    expect([...headingAnchors('# A\n```sh\n# not a heading\n```\n## A\n### B.c\n')]).toEqual([
      'a',
      'a-1',
      'bc',
    ]);
  });

  it('reads the output a block shows, with … for any text, from its whole-line comments', () => {
    const block = {
      language: 'sh',
      line: 10,
      text: ['curl x | jq -c .   # a trailing comment', '# {"id":…,"scope":"admin"}', '# …', '# 404'].join(
        '\n',
      ),
    };
    const shown = shownOutput(block);
    expect(shown.map(({ line, shown }) => [line, shown])).toEqual([
      [12, '{"id":…,"scope":"admin"}'],
      [14, '404'],
    ]);
    expect(shown[0]!.pattern.test('{"id":"00-1","scope":"admin"}')).toBe(true);
    expect(shown[0]!.pattern.test('{"id":"00-1","scope":"ci"}')).toBe(false);
    expect(shown[1]!.pattern.test('4040')).toBe(false);
  });

  it('takes link targets from prose, not from code', () => {
    expect(
      linkTargets('See [docs](docs/a.md#x) and `[not](a link)`.\n```sh\n[x](y)\n```\n[b](../b.md "title")'),
    ).toEqual([
      { target: 'docs/a.md#x', line: 1 },
      { target: '../b.md', line: 5 },
    ]);
  });
});
