import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import { type MergeQueueSettings, QUEUE_MODES } from '../schema/mergify-configuration';
import {
  anyInvalid,
  field,
  keys,
  nullable,
  readMapping,
  refuseUnknownKeys,
  booleanReader,
  enumReader,
  integerReader,
  stringReader,
} from '../schema/readers';

export const DEFAULT_MERGE_QUEUE: MergeQueueSettings = {
  maxParallelChecks: 5,
  mode: 'serial',
  skipIntermediateResults: false,
  resetOnExternalMerge: 'always',
  queuedLabel: 'queued',
  checkingLabel: null,
  dequeuedLabel: 'dequeued',
  statusComments: 'all',
  queueControlsComment: true,
};

const KNOWN = keys(
  'max_parallel_checks',
  'mode',
  'skip_intermediate_results',
  'reset_on_external_merge',
  'queued_label',
  'checking_label',
  'dequeued_label',
  'status_comments',
  'queue_controls_comment',
);

/** `merge_queue` (queue-semantics §1.3). */
export function readMergeQueue(value: unknown, at: Cursor): MergeQueueSettings | Invalid {
  if (value === undefined || value === null) return DEFAULT_MERGE_QUEUE;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  refuseUnknownKeys(mapping, at, KNOWN);
  const d = DEFAULT_MERGE_QUEUE;
  const maxParallelChecks = field(
    mapping,
    at,
    'max_parallel_checks',
    integerReader({ min: 1, max: 128 }),
    d.maxParallelChecks,
  );
  const mode = field(mapping, at, 'mode', enumReader(QUEUE_MODES), d.mode);
  const skipIntermediateResults = field(
    mapping,
    at,
    'skip_intermediate_results',
    booleanReader,
    d.skipIntermediateResults,
  );
  const resetOnExternalMerge = field(
    mapping,
    at,
    'reset_on_external_merge',
    enumReader(['always', 'never'] as const),
    d.resetOnExternalMerge,
  );
  const queuedLabel = field(mapping, at, 'queued_label', nullable(stringReader), d.queuedLabel);
  const checkingLabel = field(mapping, at, 'checking_label', nullable(stringReader), d.checkingLabel);
  const dequeuedLabel = field(mapping, at, 'dequeued_label', nullable(stringReader), d.dequeuedLabel);
  const statusComments = field(
    mapping,
    at,
    'status_comments',
    enumReader(['all', 'outcomes', 'none'] as const),
    d.statusComments,
  );
  const queueControlsComment = field(
    mapping,
    at,
    'queue_controls_comment',
    booleanReader,
    d.queueControlsComment,
  );
  if (
    anyInvalid(
      maxParallelChecks,
      mode,
      skipIntermediateResults,
      resetOnExternalMerge,
      queuedLabel,
      checkingLabel,
      dequeuedLabel,
      statusComments,
      queueControlsComment,
    ) ||
    Object.keys(mapping).some((key) => !KNOWN.has(key))
  )
    return INVALID;
  const settings = {
    maxParallelChecks,
    mode,
    skipIntermediateResults,
    resetOnExternalMerge,
    queuedLabel,
    checkingLabel,
    dequeuedLabel,
    statusComments,
    queueControlsComment,
  } as MergeQueueSettings;
  if (settings.mode === 'isolated' && settings.skipIntermediateResults)
    return at
      .at('skip_intermediate_results')
      .fail("skip_intermediate_results is not supported in 'isolated' mode");
  return settings;
}
