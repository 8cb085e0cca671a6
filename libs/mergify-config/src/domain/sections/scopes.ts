import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import type {
  FileFilters,
  MergeQueueSettings,
  ScopesSettings,
  ScopesSource,
} from '../schema/mergify-configuration';
import {
  anyInvalid,
  describeType,
  field,
  keys,
  type Mapping,
  readInteger,
  readList,
  readMapping,
  refuseUnknownKeys,
} from '../schema/readers';
import { readGlob } from './globs';

/** Scope names: letters, digits, `_` and `-`, at least two characters. */
export const SCOPE_NAME = /^[A-Za-z0-9_-]{2,}$/;

export const DEFAULT_SCOPES: ScopesSettings = {
  source: { kind: 'none' },
  mergeQueueScope: 'merge-queue',
  capacities: {},
  defaultCapacity: null,
  barrierFiles: null,
};

const KNOWN = keys('source', 'barrier_files', 'merge_queue_scope', 'capacities', 'default_capacity');

/** `scopes` (queue-semantics §1.5). */
export function readScopes(
  value: unknown,
  at: Cursor,
  mergeQueue: MergeQueueSettings,
): ScopesSettings | Invalid {
  if (value === undefined || value === null) return DEFAULT_SCOPES;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, KNOWN);
  const source = field(mapping, at, 'source', readSource, DEFAULT_SCOPES.source);
  const mergeQueueScope = field(
    mapping,
    at,
    'merge_queue_scope',
    readScopeName,
    DEFAULT_SCOPES.mergeQueueScope,
  );
  const capacities = field(mapping, at, 'capacities', readCapacities, DEFAULT_SCOPES.capacities);
  const defaultCapacity = field(
    mapping,
    at,
    'default_capacity',
    (v, c) => (v === null ? null : readInteger(v, c, { min: 1, max: 128 })),
    DEFAULT_SCOPES.defaultCapacity,
  );
  const barrierFiles = field(
    mapping,
    at,
    'barrier_files',
    (v, c) => (v === null ? null : readFileFilters(v, c, true)),
    DEFAULT_SCOPES.barrierFiles,
  );
  if (
    anyInvalid(source, mergeQueueScope, capacities, defaultCapacity, barrierFiles) ||
    at.findings.problems.length > before
  )
    return INVALID;
  const scopes = { source, mergeQueueScope, capacities, defaultCapacity, barrierFiles } as ScopesSettings;

  if (scopes.barrierFiles !== null && scopes.source.kind !== 'files')
    at.at('barrier_files').fail("barrier_files needs a 'files' scopes source");
  const capped = Object.keys(scopes.capacities).length > 0 || scopes.defaultCapacity !== null;
  if (capped && mergeQueue.mode === 'serial')
    at.at(Object.keys(scopes.capacities).length > 0 ? 'capacities' : 'default_capacity').fail(
      "scope capacities cannot be set on a 'serial' merge queue (merge_queue.mode)",
    );
  return at.findings.problems.length > before ? INVALID : scopes;
}

function readSource(value: unknown, at: Cursor): ScopesSource | Invalid {
  if (value === null) return { kind: 'none' };
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const kinds = Object.keys(mapping);
  if (kinds.length !== 1 || (kinds[0] !== 'files' && kinds[0] !== 'manual'))
    return at.fail("expected exactly one of 'files' or 'manual'");
  if (kinds[0] === 'manual')
    return mapping.manual === null ? { kind: 'manual' } : at.at('manual').fail('expected null');
  const filesAt = at.at('files');
  const files = readMapping(mapping.files, filesAt);
  if (files === INVALID) return INVALID;
  const result: Record<string, FileFilters> = {};
  let valid = true;
  for (const [scope, filters] of Object.entries(files)) {
    const scopeAt = filesAt.at(scope);
    if (!SCOPE_NAME.test(scope)) {
      scopeAt.fail(`invalid scope name '${scope}': letters, digits, '_' and '-', at least 2 characters`);
      valid = false;
      continue;
    }
    const read = filters === null ? { include: [], exclude: [] } : readFileFilters(filters, scopeAt, false);
    if (read === INVALID) valid = false;
    else result[scope] = read;
  }
  return valid ? { kind: 'files', files: result } : INVALID;
}

function readFileFilters(value: unknown, at: Cursor, includeRequired: boolean): FileFilters | Invalid {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, keys('include', 'exclude'));
  const include =
    mapping.include === undefined
      ? includeRequired
        ? at.at('include').fail('required key is missing')
        : []
      : readList(mapping.include, at.at('include'), readGlob, { minItems: includeRequired ? 1 : 0 });
  const exclude = mapping.exclude === undefined ? [] : readList(mapping.exclude, at.at('exclude'), readGlob);
  if (include === INVALID || exclude === INVALID || at.findings.problems.length > before) return INVALID;
  return { include, exclude };
}

function readScopeName(value: unknown, at: Cursor): string | Invalid {
  if (typeof value !== 'string') return at.fail(`expected a string, got ${describeType(value)}`);
  return SCOPE_NAME.test(value)
    ? value
    : at.fail(`invalid scope name '${value}': letters, digits, '_' and '-', at least 2 characters`);
}

function readCapacities(value: unknown, at: Cursor): Record<string, number> | Invalid {
  const mapping: Mapping | Invalid = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const capacities: Record<string, number> = {};
  let valid = true;
  for (const [scope, capacity] of Object.entries(mapping)) {
    const scopeAt = at.at(scope);
    const name = readScopeName(scope, scopeAt);
    const read = readInteger(capacity, scopeAt, { min: 1, max: 128 });
    if (name === INVALID || read === INVALID) valid = false;
    else capacities[scope] = read;
  }
  return valid ? capacities : INVALID;
}
