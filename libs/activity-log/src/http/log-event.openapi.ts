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

const DOCUMENTED_METADATA: Readonly<Record<string, SchemaObject>> = {
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
