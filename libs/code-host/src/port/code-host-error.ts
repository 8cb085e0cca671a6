/**
 * Why the code host refused. `not-found`: the repository, pull request, branch or file is not
 * there (or not visible to us). `conflict`: the state moved under us (head changed, branch
 * exists, not a fast-forward, merge conflict on update-branch). `not-mergeable`: GitHub refused
 * the merge (checks, protection, conflicts). `forbidden`: permissions. `unavailable`: the host
 * failed or rate limits outlasted the retries; worth trying again later.
 */
export type CodeHostErrorKind =
  'not-found' | 'conflict' | 'not-mergeable' | 'forbidden' | 'invalid' | 'unavailable';

export class CodeHostError extends Error {
  constructor(
    readonly kind: CodeHostErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CodeHostError';
  }

  /** The host did not answer: processors wait it out instead of counting it against the event (isOutage). */
  get outage(): boolean {
    return this.kind === 'unavailable';
  }
}

export function isCodeHostError(error: unknown, kind?: CodeHostErrorKind): error is CodeHostError {
  return error instanceof CodeHostError && (kind === undefined || error.kind === kind);
}
