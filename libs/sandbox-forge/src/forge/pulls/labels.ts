import { codePointLength } from '@switchyard/kernel';
import { GitHubApiError } from '../github-api-error';
import type { ForgeTransaction } from '../forge-transaction';
import { stableId } from '../github-shapes';
import type { LabelRecord, PullRecord, RepositoryRecord } from '../sandbox-records';
import { changePull, loadPull, type PullWebhook } from './pull-change';

/** The labels of a pull request (GitHub's issue labels). */
type Body = Record<string, unknown>;

/** GitHub's limits: 100 labels of 50 characters on a pull request. */
export const MAX_LABELS = 100;
export const MAX_LABEL_NAME_LENGTH = 50;

const labelNamed = (repo: RepositoryRecord, name: string): LabelRecord => ({
  id: stableId(`label:${repo.id}:${name.toLowerCase()}`),
  name,
  color: 'ededed',
  description: null,
});

const tooManyLabels = () =>
  GitHubApiError.unprocessable('Validation Failed', [
    {
      resource: 'Issue',
      field: 'labels',
      code: 'custom',
      message: `An issue may have at most ${MAX_LABELS} labels`,
    },
  ]);

function labelNames(body: Body | unknown[]): string[] {
  const raw = Array.isArray(body) ? body : body.labels;
  if (!Array.isArray(raw))
    throw GitHubApiError.unprocessable('Invalid request.\n\n"labels" wasn\'t supplied.');
  if (raw.length > MAX_LABELS) throw tooManyLabels();
  return raw.map((entry) => {
    const label =
      typeof entry === 'string'
        ? entry
        : typeof entry === 'object' && entry !== null
          ? (entry as { name?: unknown }).name
          : undefined;
    if (typeof label !== 'string' || label.trim() === '')
      throw GitHubApiError.unprocessable('Validation Failed');
    if (codePointLength(label, MAX_LABEL_NAME_LENGTH) > MAX_LABEL_NAME_LENGTH)
      throw GitHubApiError.unprocessable('Validation Failed', [
        {
          resource: 'Label',
          field: 'name',
          code: 'custom',
          message: `name is too long (maximum is ${MAX_LABEL_NAME_LENGTH} characters)`,
        },
      ]);
    return label;
  });
}

export async function listLabels(tx: ForgeTransaction, owner: string, name: string, number: number) {
  const { repo, pull } = await loadPull(tx, owner, name, number);
  return pull.labels.map((label) => tx.shapes.label(repo, label));
}

export async function addLabels(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  body: Body | unknown[],
  replace: boolean,
) {
  const { repo, pull: next } = await changePull(tx, owner, name, number, ({ repo, pull }) => {
    const wanted = labelNames(body).map((label) => labelNamed(repo, label));
    const has = (list: readonly LabelRecord[], label: LabelRecord) =>
      list.some((known) => known.name.toLowerCase() === label.name.toLowerCase());
    const removed = replace ? pull.labels.filter((label) => !has(wanted, label)) : [];
    const kept = pull.labels.filter((label) => !has(removed, label));
    const added = wanted.filter(
      (label, index) =>
        !has(kept, label) &&
        wanted.findIndex((other) => other.name.toLowerCase() === label.name.toLowerCase()) === index,
    );
    if (kept.length + added.length > MAX_LABELS) throw tooManyLabels();
    // Each webhook shows the pull request's labels as they stand after it, one label at a time.
    let shown: PullRecord = { ...pull, labels: kept, updatedAt: tx.timestamp };
    const webhooks: PullWebhook[] = removed.map((label) => ({
      action: 'unlabeled',
      extra: { label: tx.shapes.label(repo, label) },
      pull: shown,
    }));
    for (const label of added) {
      shown = { ...shown, labels: [...shown.labels, label] };
      webhooks.push({ action: 'labeled', extra: { label: tx.shapes.label(repo, label) }, pull: shown });
    }
    return { next: shown, webhooks };
  });
  return next.labels.map((label) => tx.shapes.label(repo, label));
}

export async function removeLabel(
  tx: ForgeTransaction,
  owner: string,
  name: string,
  number: number,
  label: string,
) {
  const { repo, pull: next } = await changePull(tx, owner, name, number, ({ repo, pull }) => {
    const found = pull.labels.find((known) => known.name.toLowerCase() === label.toLowerCase());
    if (!found) throw new GitHubApiError(404, 'Label does not exist');
    return {
      next: { ...pull, labels: pull.labels.filter((known) => known !== found) },
      webhooks: [{ action: 'unlabeled', extra: { label: tx.shapes.label(repo, found) } }],
    };
  });
  return next.labels.map((each) => tx.shapes.label(repo, each));
}
