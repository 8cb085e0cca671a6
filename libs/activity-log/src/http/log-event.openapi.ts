import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ActorVerb } from '@switchyard/activity-log-contract';
import { LOG_EVENT_TYPES } from '@switchyard/activity-log-contract';
import { OUTCOMES } from '../domain/outcome';

/**
 * The OpenAPI description of GET logs' events (spec "Event"), one schema per event type whose
 * metadata we document (Mergify's Event<Type>Metadata), and a generic one for the others.
 */
const ACTOR: SchemaObject = {
  type: 'object',
  required: ['type', 'id', 'name'],
  properties: {
    type: { type: 'string', enum: ['application', 'user'] },
    id: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
    name: { type: 'string' },
  },
};

/** Mirrors actorMetadata: the actor and its staff flag, always both. */
const actorFields = (verb: ActorVerb): Record<string, SchemaObject> => ({
  [`${verb}_by`]: ACTOR,
  [`${verb}_by_staff`]: {
    type: 'boolean',
    enum: [false],
    description: 'Whether vendor staff acted on your behalf: never, on a self-hosted install.',
  },
});

const DATE_TIME: SchemaObject = { type: 'string', format: 'date-time' };
const CONDITIONS: SchemaObject = {
  type: 'array',
  items: { oneOf: [{ type: 'string' }, { type: 'object' }] },
};
const FREEZE_ATTRIBUTES: SchemaObject = {
  type: 'object',
  required: ['reason', 'start', 'end', 'timezone', 'matching_conditions', 'exclude_conditions'],
  properties: {
    reason: { type: 'string' },
    start: { type: 'string', description: 'Wall-clock time in the freeze timezone, no offset.' },
    end: {
      type: 'string',
      nullable: true,
      description: 'Wall-clock time in the freeze timezone, no offset.',
    },
    timezone: { type: 'string' },
    matching_conditions: CONDITIONS,
    exclude_conditions: CONDITIONS,
  },
};

const metadata = (properties: Record<string, SchemaObject>): SchemaObject => ({
  type: 'object',
  required: Object.keys(properties),
  properties,
});

const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const STRING: SchemaObject = { type: 'string' };
const INTEGER: SchemaObject = { type: 'integer' };
const BOOLEAN: SchemaObject = { type: 'boolean' };
const UUID: SchemaObject = { type: 'string', format: 'uuid' };
const NUMBERS: SchemaObject = { type: 'array', items: { type: 'integer', minimum: 0 } };
const STRINGS: SchemaObject = { type: 'array', items: STRING };
const QUEUE_CHECK: SchemaObject = {
  type: 'object',
  required: ['name', 'description', 'url', 'state', 'avatar_url'],
  properties: {
    name: STRING,
    description: STRING,
    url: nullable(STRING),
    details_url: nullable(STRING),
    state: STRING,
    avatar_url: nullable(STRING),
  },
};
const SPECULATIVE_CHECK: SchemaObject = metadata({
  number: INTEGER,
  in_place: BOOLEAN,
  checks_timed_out: BOOLEAN,
  checks_conclusion: STRING,
  checks_started_at: nullable(DATE_TIME),
  checks_ended_at: nullable(DATE_TIME),
  unsuccessful_checks: { type: 'array', items: QUEUE_CHECK },
  pull_request_numbers: NUMBERS,
});

/**
 * Mergify's batch fields. Each is null on records of events stored before the queue kept it
 * (the log mapping's defaults); batch_id is train_car_id's value.
 */
const BATCH: Record<string, SchemaObject> = {
  batch_id: nullable({ ...UUID, description: 'The batch (train car) this record concerns.' }),
  batch_name: nullable({ ...STRING, description: 'The batch as the status API showed it: `<queue> #1 #2`.' }),
  scopes: nullable({ ...STRINGS, description: "The batch's scopes; empty when the queue is not scoped." }),
  all_scopes: nullable({ ...BOOLEAN, description: 'Whether the batch impacts every scope.' }),
  parent_batch_ids: nullable({
    ...{ type: 'array', items: UUID },
    description: 'The batches it is checked on top of.',
  }),
};
const IN_QUEUE: Record<string, SchemaObject> = {
  queue_name: STRING,
  partition_name: STRING,
  priority_rule_name: nullable(STRING),
  session_id: UUID,
  train_car_id: nullable({ ...UUID, deprecated: true, description: 'Use batch_id (same value).' }),
};
const CHECKS: Record<string, SchemaObject> = {
  ...IN_QUEUE,
  ...BATCH,
  branch: STRING,
  queued_at: DATE_TIME,
  speculative_check_pull_request: SPECULATIVE_CHECK,
  pull_request_numbers: NUMBERS,
};
const BISECTION: Record<string, SchemaObject> = {
  ...IN_QUEUE,
  original_batch_pr_numbers: NUMBERS,
  batch_id: BATCH.batch_id!,
  batch_name: BATCH.batch_name!,
};

/** The queue's records whose fields Mergify's schema requires and the spec's table leaves out. */
const QUEUE_METADATA: Readonly<Record<string, SchemaObject>> = {
  'action.queue.checks_start': metadata({
    ...CHECKS,
    start_reason: STRING,
    previous_batch_id: nullable({
      ...UUID,
      description: 'The batch this pull request was checked in before; null on its first check.',
    }),
    previous_batch_name: nullable(STRING),
  }),
  'action.queue.checks_end': metadata({
    ...CHECKS,
    aborted: BOOLEAN,
    abort_code: nullable(STRING),
    abort_reason: nullable(STRING),
    abort_status: { type: 'string', enum: ['DEFINITIVE', 'REEMBARKED'] },
    retry_attempt: nullable(INTEGER),
    max_retries: nullable(INTEGER),
  }),
  'action.queue.batch_bisection_start': metadata({
    ...BISECTION,
    batch_size_before_split: INTEGER,
    number_of_sub_batches: INTEGER,
    bisection_depth: INTEGER,
    is_top_level: BOOLEAN,
  }),
  'action.queue.batch_bisection_end': metadata({
    ...BISECTION,
    culprit_found: BOOLEAN,
    culprit_pr_numbers: NUMBERS,
    confirmed_culprit_pr_numbers: { ...NUMBERS, description: 'Culprits shown failing alone: every culprit.' },
    dropped_unverified_pr_numbers: nullable({
      ...NUMBERS,
      description: 'Dropped when the failure resolution cap was reached, their own failure never shown.',
    }),
    remaining_pr_numbers: NUMBERS,
    max_failure_resolution_reached: BOOLEAN,
  }),
  'action.queue.merged': metadata({
    branch: STRING,
    partition_names: STRINGS,
    queue_name: STRING,
    queued_at: DATE_TIME,
    priority_rule_name: nullable(STRING),
    session_id: UUID,
    merge_commit_sha: nullable({ ...STRING, description: "The base branch's new tip." }),
  }),
  'action.queue.leave': metadata({
    reason: STRING,
    merged: BOOLEAN,
    queue_name: STRING,
    branch: STRING,
    partition_name: STRING,
    queued_at: DATE_TIME,
    seconds_waiting_for_schedule: INTEGER,
    seconds_waiting_for_freeze: INTEGER,
    priority_rule_name: nullable(STRING),
    conditions_evaluation: nullable({ type: 'object' }),
    checks: { type: 'array', items: QUEUE_CHECK },
    unsuccessful_checks: { type: 'array', items: QUEUE_CHECK },
    pull_request_head_sha: STRING,
    session_id: nullable(UUID),
    dequeue_code: nullable(STRING),
    batch_id: nullable({ ...UUID, description: 'The batch it left from; null when it left waiting.' }),
    scopes: BATCH.scopes!,
    all_scopes: BATCH.all_scopes!,
  }),
};

const DOCUMENTED_METADATA: Readonly<Record<string, SchemaObject>> = {
  ...QUEUE_METADATA,
  'queue.pause.create': metadata({ reason: { type: 'string' }, ...actorFields('created') }),
  'queue.pause.update': metadata({ reason: { type: 'string' }, ...actorFields('updated') }),
  'queue.pause.delete': metadata(actorFields('deleted')),
  'scheduled_freeze.create': metadata({
    scheduled_freeze_attributes: FREEZE_ATTRIBUTES,
    ...actorFields('created'),
    created_at: DATE_TIME,
  }),
  'scheduled_freeze.update': metadata({
    scheduled_freeze_attributes_before: FREEZE_ATTRIBUTES,
    scheduled_freeze_attributes_after: FREEZE_ATTRIBUTES,
    ...actorFields('updated'),
    updated_at: DATE_TIME,
  }),
  'scheduled_freeze.delete': metadata({
    scheduled_freeze_attributes: FREEZE_ATTRIBUTES,
    reason: { type: 'string' },
    ...actorFields('deleted'),
    deleted_at: DATE_TIME,
  }),
};

const logEvent = (types: readonly string[], metadataSchema: SchemaObject): SchemaObject => ({
  type: 'object',
  required: [
    'id',
    'received_at',
    'trigger',
    'repository',
    'pull_request',
    'base_ref',
    'outcome',
    'type',
    'metadata',
  ],
  properties: {
    id: { type: 'integer' },
    received_at: DATE_TIME,
    trigger: { type: 'string' },
    repository: { type: 'string' },
    pull_request: { type: 'integer', nullable: true },
    base_ref: { type: 'string', nullable: true },
    outcome: { type: 'string', enum: [...OUTCOMES] },
    type: { type: 'string', enum: [...types] },
    metadata: metadataSchema,
  },
});

export const LOG_EVENT_SCHEMA: SchemaObject = {
  oneOf: [
    ...Object.entries(DOCUMENTED_METADATA).map(([type, schema]) => logEvent([type], schema)),
    logEvent(
      LOG_EVENT_TYPES.filter((type) => !(type in DOCUMENTED_METADATA)),
      { type: 'object', additionalProperties: true },
    ),
  ],
};

export const LOG_PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['size', 'per_page', 'events'],
  properties: {
    size: { type: 'integer' },
    per_page: { type: 'integer' },
    events: { type: 'array', items: LOG_EVENT_SCHEMA },
  },
};
