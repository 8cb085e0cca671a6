import type { LeafParse } from '../../conditions';
import type { PathSegment } from '../source/configuration-path';
import type { Deprecation, RemovalFacts } from './deprecation';

/** A place in the configuration that cannot be accepted, and why. */
export interface FieldProblem {
  path: readonly PathSegment[];
  message: string;
}

/** Everything validation noticed, collected in document order as the walk goes. */
export class Findings {
  readonly problems: FieldProblem[] = [];
  readonly deprecations: Deprecation[] = [];
  /** Condition texts already read in this validation: large files repeat them rule after rule. */
  readonly conditionLeaves = new Map<string, LeafParse>();
}

/** Marks a value that failed validation; its problem is already recorded. */
export const INVALID: unique symbol = Symbol('invalid configuration value');
export type Invalid = typeof INVALID;

/** Where the walk stands: the path so far and the findings it writes to. */
export class Cursor {
  constructor(
    readonly findings: Findings,
    readonly path: readonly PathSegment[] = [],
  ) {}

  at(segment: PathSegment): Cursor {
    return new Cursor(this.findings, [...this.path, segment]);
  }

  fail(message: string): Invalid {
    this.findings.problems.push({ path: this.path, message });
    return INVALID;
  }

  deprecated(
    notice: Omit<Deprecation, 'path' | 'removal'> & Partial<RemovalFacts>,
    tiedToField = true,
  ): void {
    const { message, deadline, removedOn, stillAccepted, source } = notice;
    this.findings.deprecations.push({
      message,
      deadline,
      path: tiedToField ? this.path : null,
      ...(source === undefined
        ? {}
        : { removal: { removedOn: removedOn ?? null, stillAccepted: stillAccepted ?? true, source } }),
    });
  }
}
