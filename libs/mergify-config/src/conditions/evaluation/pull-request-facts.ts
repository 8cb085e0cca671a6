import type {
  ChangedFile,
  CheckOnHead,
  CheckState,
  PullRequestCommit,
  PullRequestSnapshot,
} from '@switchyard/code-host';
import { parse as parseYaml } from 'yaml';

/**
 * Facts derived from a pull-request snapshot, one function per fact, as Mergify defines the
 * attributes (queue-semantics §5.2 and Mergify's attribute descriptions).
 */

type ReviewVerdict = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';

/**
 * Each reviewer's standing verdict: their latest review, except that a comment does not erase an
 * approval or a change request (GitHub shows the approval until it is dismissed or replaced).
 */
export function reviewVerdicts(pullRequest: PullRequestSnapshot): Map<string, ReviewVerdict> {
  const verdicts = new Map<string, ReviewVerdict>();
  for (const review of pullRequest.reviews) {
    if (review.state === 'PENDING') continue;
    const current = verdicts.get(review.author);
    if (review.state === 'COMMENTED' && (current === 'APPROVED' || current === 'CHANGES_REQUESTED')) continue;
    verdicts.set(review.author, review.state);
  }
  return verdicts;
}

export const reviewersWith = (pullRequest: PullRequestSnapshot, verdict: ReviewVerdict): string[] =>
  [...reviewVerdicts(pullRequest)].filter(([, state]) => state === verdict).map(([author]) => author);

/** Check states behind each `check-*` attribute; `check-failure` also takes cancelled, timed-out and action-required runs. */
export const CHECK_STATES: Readonly<Record<string, readonly CheckState[] | 'any'>> = {
  check: 'any',
  'check-success': ['success'],
  'check-success-or-neutral': ['success', 'neutral'],
  'check-failure': ['failure', 'cancelled', 'timed_out', 'action_required'],
  'check-neutral': ['neutral'],
  'check-timed-out': ['timed_out'],
  'check-skipped': ['skipped'],
  'check-cancelled': ['cancelled'],
  'check-pending': ['pending'],
  'check-stale': ['stale'],
};

export function checksIn(pullRequest: PullRequestSnapshot, attribute: string): CheckOnHead[] {
  const states = CHECK_STATES[attribute]!;
  return pullRequest.checks.filter((check) => states === 'any' || states.includes(check.state));
}

/** Every path the pull request touches; a rename counts at both its old and new path. */
export function touchedFiles(files: readonly ChangedFile[]): string[] {
  return files.flatMap((file) =>
    file.status === 'renamed' && file.previousFilename
      ? [file.previousFilename, file.filename]
      : [file.filename],
  );
}

export const addedFiles = (files: readonly ChangedFile[]): string[] =>
  files
    .filter((file) => file.status === 'added' || file.status === 'renamed' || file.status === 'copied')
    .map((file) => file.filename);

export const removedFiles = (files: readonly ChangedFile[]): string[] =>
  files.flatMap((file) =>
    file.status === 'removed'
      ? [file.filename]
      : file.status === 'renamed' && file.previousFilename
        ? [file.previousFilename]
        : [],
  );

export const modifiedFiles = (files: readonly ChangedFile[]): string[] =>
  files
    .filter((file) => file.status === 'modified' || file.status === 'changed')
    .map((file) => file.filename);

export const isMergeCommit = (commit: PullRequestCommit): boolean => commit.parents.length > 1;

/** The body without HTML comments (`<!-- … -->`) or markdown comment lines (`[//]: # (…)`). */
export const bodyWithoutComments = (body: string): string =>
  body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/^\[(?:\/\/|comment)\]: #.*$/gim, '')
    .trim();

/** `Depends-On:` references in the body, as `owner/repo#N`. */
export function dependsOn(pullRequest: PullRequestSnapshot): string[] {
  const references: string[] = [];
  for (const match of pullRequest.body.matchAll(/^\s*depends-on:\s*(\S+)\s*$/gim)) {
    const reference = match[1]!;
    const local = /^#(\d+)$/.exec(reference);
    const qualified = /^([\w.-]+\/[\w.-]+)#(\d+)$/.exec(reference);
    const url = /^https?:\/\/[^/]+\/([\w.-]+\/[\w.-]+)\/pull\/(\d+)\/?$/.exec(reference);
    if (local) references.push(`${pullRequest.repository.fullName}#${local[1]}`);
    else if (qualified) references.push(`${qualified[1]}#${qualified[2]}`);
    else if (url) references.push(`${url[1]}#${url[2]}`);
  }
  return references;
}

export interface DependabotUpdate {
  name: string[];
  type: string[];
  updateType: string[];
}

/** The `updated-dependencies` block Dependabot writes in its commit messages. */
export function dependabotUpdates(commits: readonly PullRequestCommit[]): DependabotUpdate {
  const update: DependabotUpdate = { name: [], type: [], updateType: [] };
  for (const commit of commits) {
    const block = /^---\s*\n([\s\S]*?updated-dependencies:[\s\S]*?)^\.\.\.\s*$/m.exec(commit.message);
    if (!block) continue;
    let metadata: unknown;
    try {
      metadata = parseYaml(block[1]!);
    } catch {
      continue;
    }
    const dependencies = (metadata as { 'updated-dependencies'?: unknown })?.['updated-dependencies'];
    if (!Array.isArray(dependencies)) continue;
    for (const dependency of dependencies as Record<string, unknown>[]) {
      if (typeof dependency?.['dependency-name'] === 'string')
        update.name.push(dependency['dependency-name']);
      if (typeof dependency?.['dependency-type'] === 'string')
        update.type.push(dependency['dependency-type']);
      if (typeof dependency?.['update-type'] === 'string') update.updateType.push(dependency['update-type']);
    }
  }
  return update;
}

const isBot = (name: string, email: string): boolean => /\[bot\]/i.test(name) || /\[bot\]@/i.test(email);

/**
 * People other than the pull request's author who wrote its commits or are credited in
 * `Co-authored-by:` trailers, merge commits and bots excluded; one entry per e-mail address.
 */
export function coAuthors(pullRequest: PullRequestSnapshot): string[] {
  const people = new Map<string, string>();
  const add = (name: string, email: string, login: string | null) => {
    if (isBot(name, email) || login?.toLowerCase() === pullRequest.author.toLowerCase()) return;
    people.set(email.toLowerCase(), `${name} <${email}>`);
  };
  const authorEmails = new Set<string>();
  for (const commit of pullRequest.commits) {
    if (isMergeCommit(commit)) continue;
    if (commit.author.login?.toLowerCase() === pullRequest.author.toLowerCase())
      authorEmails.add(commit.author.email.toLowerCase());
    add(commit.author.name, commit.author.email, commit.author.login);
    for (const trailer of commit.message.matchAll(/^co-authored-by:\s*(.+?)\s*<([^>]+)>\s*$/gim))
      add(trailer[1]!, trailer[2]!, null);
  }
  for (const email of authorEmails) people.delete(email);
  return [...people.values()];
}
