import type { DemoResult } from './run-demo';

/** The closing words: how the queue ended, and where to look next (runnable as printed). */
export function summaryLines(result: DemoResult): string[] {
  const lines = ['', `The queue drained in ${result.drainSeconds.toFixed(1)} s:`];
  for (const pull of result.pullRequests) {
    const ended = pull.merged ? 'merged' : `dequeued (${pull.dequeueCode ?? 'no code'})`;
    const expected = pull.expected.merged ? 'merge' : pull.expected.because;
    const verdict = pull.asExpected ? '' : `   <- expected: ${expected}`;
    lines.push(`  #${String(pull.number).padEnd(3)} ${pull.change.title.padEnd(36)} ${ended}${verdict}`);
  }
  return lines;
}

export function whereToLookLines(url: string, adminKey: string, repository: string): string[] {
  return [
    '',
    'Where to look:',
    `  API          ${url}/v1  (OpenAPI document: ${url}/v1/openapi.json)`,
    `  admin key    ${adminKey}`,
    `  dashboard    ${url}/ui`,
    '',
    '  Try:',
    `    export SWITCHYARD_URL=${url} SWITCHYARD_ADMIN_KEY=${adminKey}`,
    `    curl -s -H "Authorization: Bearer $SWITCHYARD_ADMIN_KEY" "$SWITCHYARD_URL/v1/repos/${repository}/merge-queue/status"`,
    `    curl -s -H "Authorization: Bearer $SWITCHYARD_ADMIN_KEY" "$SWITCHYARD_URL/v1/repos/${repository}/logs?per_page=100"`,
    `    curl -s -H "Authorization: Bearer $SWITCHYARD_ADMIN_KEY" "$SWITCHYARD_URL/sandbox/github/repos/${repository}/pulls?state=all"`,
  ];
}
