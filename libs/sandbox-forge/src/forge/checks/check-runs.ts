import { GitHubApiError, optionalDateTime, optionalString, requiredString } from '../github-api-error';
import { SANDBOX_BOT, type ForgeTransaction } from '../forge-transaction';
import { stableId } from '../github-shapes';
import { resolveRef } from '../repository';
import type { CheckConclusion, CheckRunRecord, CheckStatus } from '../sandbox-records';

/** Check runs: what CI systems (and the service itself) report on commits, and the sandbox CI's. */
type Body = Record<string, unknown>;

const STATUSES: readonly CheckStatus[] = ['queued', 'in_progress', 'completed'];
const CONCLUSIONS: readonly CheckConclusion[] = [
  'success',
  'failure',
  'neutral',
  'cancelled',
  'skipped',
  'timed_out',
  'action_required',
  'stale',
];

function readOutput(body: Body, previous?: CheckRunRecord['output']): CheckRunRecord['output'] {
  const output = body.output;
  if (output === undefined || output === null) return previous ?? { title: null, summary: null, text: null };
  if (typeof output !== 'object')
    throw GitHubApiError.unprocessable("Invalid request.\n\nFor 'output', it is not an object.");
  const fields = output as Body;
  return {
    title: optionalString(fields, 'title') ?? null,
    summary: optionalString(fields, 'summary') ?? null,
    text: optionalString(fields, 'text') ?? null,
  };
}

function readStatus(
  body: Body,
  fallback: CheckStatus,
): { status: CheckStatus; conclusion: CheckConclusion | null } {
  const status = (optionalString(body, 'status') ?? fallback) as CheckStatus;
  const conclusion = (optionalString(body, 'conclusion') ?? null) as CheckConclusion | null;
  if (!STATUSES.includes(status))
    throw GitHubApiError.unprocessable('Validation Failed', [
      { resource: 'CheckRun', field: 'status', code: 'invalid' },
    ]);
  if (conclusion !== null && !CONCLUSIONS.includes(conclusion))
    throw GitHubApiError.unprocessable('Validation Failed', [
      { resource: 'CheckRun', field: 'conclusion', code: 'invalid' },
    ]);
  if (conclusion !== null) return { status: 'completed', conclusion };
  if (status === 'completed')
    throw GitHubApiError.unprocessable('Invalid request.\n\n"conclusion" wasn\'t supplied.');
  return { status, conclusion: null };
}

export async function createCheckRun(tx: ForgeTransaction, owner: string, name: string, body: Body) {
  const repo = await tx.repository(owner, name);
  const checkName = requiredString(body, 'name');
  const headSha = requiredString(body, 'head_sha');
  if (!(await tx.store.commit(headSha)))
    throw GitHubApiError.unprocessable('No commit found for SHA: ' + headSha);
  const { status, conclusion } = readStatus(body, 'queued');
  const run: CheckRunRecord = {
    id: await tx.store.nextId(),
    suiteId: stableId(`suite:${repo.id}:${headSha}:client`),
    name: checkName,
    headSha,
    status,
    conclusion,
    startedAt: optionalDateTime(body, 'started_at') ?? tx.timestamp,
    completedAt: status === 'completed' ? (optionalDateTime(body, 'completed_at') ?? tx.timestamp) : null,
    externalId: optionalString(body, 'external_id') ?? '',
    detailsUrl: optionalString(body, 'details_url') ?? null,
    output: readOutput(body),
    app: 'client',
  };
  await tx.store.saveRecord('check_run', run.id, repo.id, headSha, run);
  await tx.emitCheckRun(repo, run, 'created');
  if (run.status === 'completed') await completed(tx, repo, run);
  return tx.checkRunJson(repo, run);
}

export async function updateCheckRun(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  id: number,
  body: Body,
) {
  const repo = await tx.repository(owner, name);
  const run = await tx.store.record<CheckRunRecord>('check_run', id);
  if (!run || run.app !== 'client') throw GitHubApiError.notFound();
  const { status, conclusion } = readStatus(body, run.status);
  const next: CheckRunRecord = {
    ...run,
    name: optionalString(body, 'name') ?? run.name,
    status,
    conclusion,
    detailsUrl: optionalString(body, 'details_url') ?? run.detailsUrl,
    externalId: optionalString(body, 'external_id') ?? run.externalId,
    completedAt: status === 'completed' ? (optionalDateTime(body, 'completed_at') ?? tx.timestamp) : null,
    output: readOutput(body, run.output),
  };
  await tx.store.saveRecord('check_run', next.id, repo.id, next.headSha, next);
  if (run.status !== 'completed' && next.status === 'completed') await completed(tx, repo, next);
  return tx.checkRunJson(repo, next);
}

async function completed(
  tx: ForgeTransaction,
  repo: Awaited<ReturnType<ForgeTransaction['repository']>>,
  run: CheckRunRecord,
) {
  await tx.emitCheckRun(repo, run, 'completed', run.app === 'sandbox-ci' ? SANDBOX_BOT : tx.actor);
  const suite = await tx.checkSuiteJson(repo, run.headSha, run.suiteId);
  if (suite.status === 'completed')
    await tx.emit(
      'check_suite',
      repo,
      { action: 'completed', check_suite: suite },
      run.app === 'sandbox-ci' ? SANDBOX_BOT : tx.actor,
    );
}

/** Completes a sandbox CI run with the conclusion its model drew when it started. */
export async function completeSandboxCiRun(
  tx: ForgeTransaction,
  checkRunId: number,
  conclusion: CheckConclusion,
) {
  const found = await tx.store.recordWithRepository<CheckRunRecord>('check_run', checkRunId);
  const repo = found ? await tx.store.repositoryById(found.repositoryId) : null;
  if (!found || !repo || found.data.status === 'completed') return;
  const passed = conclusion === 'success';
  const next: CheckRunRecord = {
    ...found.data,
    status: 'completed',
    conclusion,
    completedAt: tx.timestamp,
    output: {
      title: passed ? 'Sandbox CI passed' : 'Sandbox CI failed',
      summary: passed
        ? 'No `sandbox-ci: fail` marker in the tree, and no flake drawn.'
        : 'The tree holds a `sandbox-ci: fail` marker, or a `sandbox-ci: flaky` one drew a failure.',
      text: [found.data.output.text, `Finished: ${conclusion}.`].filter((line) => line !== null).join('\n'),
    },
  };
  await tx.store.saveRecord('check_run', next.id, repo.id, next.headSha, next);
  await completed(tx, repo, next);
}

export async function getCheckRun(tx: ForgeTransaction, owner: string, name: string, id: number) {
  const repo = await tx.repository(owner, name);
  const run = await tx.store.record<CheckRunRecord>('check_run', id);
  if (!run) throw GitHubApiError.notFound();
  return tx.checkRunJson(repo, run);
}

export async function listCheckRuns(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  ref: string,
  query: Record<string, string | undefined>,
) {
  const repo = await tx.repository(owner, name);
  const sha = await resolveRef(tx, repo, ref);
  let runs = await tx.store.records<CheckRunRecord>(repo.id, 'check_run', sha);
  if (query.check_name) runs = runs.filter((run) => run.name === query.check_name);
  if (query.status) runs = runs.filter((run) => run.status === query.status);
  if ((query.filter ?? 'latest') === 'latest') {
    const latest = new Map<string, CheckRunRecord>();
    for (const run of runs) latest.set(`${run.app}:${run.name}`, run);
    runs = [...latest.values()];
  }
  const checkRuns = [];
  for (const run of runs.sort((a, b) => b.id - a.id)) checkRuns.push(await tx.checkRunJson(repo, run));
  return { total_count: checkRuns.length, check_runs: checkRuns };
}
