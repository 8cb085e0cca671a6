import type { CheckRunRecord, RepositoryRecord } from '../forge/sandbox-records';

/** While a run is not completed its page reloads itself this often, in seconds. */
export const RUNNING_PAGE_REFRESH_SECONDS = 5;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for an HTML element or a quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** Whole seconds between two instants, or null when either is missing. */
function secondsBetween(start: string, end: string | null): number | null {
  if (end === null) return null;
  const elapsed = Date.parse(end) - Date.parse(start);
  return Number.isFinite(elapsed) ? Math.max(0, Math.round(elapsed / 1000)) : null;
}

/**
 * A check run's page in the sandbox forge (where its `details_url` and `html_url` lead): its
 * verdict, its timing, and its log (the output it reported). Every value from the run is escaped:
 * a client names its check runs and writes their output.
 */
export function checkRunPage(repo: RepositoryRecord, run: CheckRunRecord): string {
  const verdict = run.conclusion ?? run.status;
  const seconds = secondsBetween(run.startedAt, run.completedAt);
  const log = [run.output.title, run.output.summary, run.output.text].filter(
    (part): part is string => part !== null && part !== '',
  );
  const rows: Array<[string, string]> = [
    ['Repository', `${repo.owner}/${repo.name}`],
    ['Commit', run.headSha],
    ['Status', run.status],
    ['Conclusion', run.conclusion ?? '—'],
    ['Started', run.startedAt],
    ['Completed', run.completedAt ?? '—'],
    ['Duration', seconds === null ? '—' : `${seconds} s`],
    ['Reported by', run.app === 'sandbox-ci' ? 'the sandbox CI' : 'a client of the sandbox API'],
  ];
  const title = `${run.name}: ${verdict} · ${repo.owner}/${repo.name}`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    run.status === 'completed' ? '' : `<meta http-equiv="refresh" content="${RUNNING_PAGE_REFRESH_SECONDS}">`,
    '<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}',
    'dt{font-weight:600;float:left;clear:left;width:9rem}dd{margin:0 0 .2rem 9rem}',
    'pre{background:#f6f8fa;padding:1rem;overflow:auto;white-space:pre-wrap}',
    '.success{color:#1a7f37}.failure,.timed_out,.cancelled{color:#cf222e}</style>',
    '</head><body>',
    `<h1>${escapeHtml(run.name)} <span class="${escapeHtml(verdict)}">${escapeHtml(verdict)}</span></h1>`,
    '<dl>',
    ...rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`),
    '</dl>',
    '<h2>Log</h2>',
    `<pre>${log.length === 0 ? 'Nothing reported.' : escapeHtml(log.join('\n\n'))}</pre>`,
    '</body></html>',
  ]
    .filter((line) => line !== '')
    .join('\n');
}
