import type { Condition } from '../domain/conditions/condition';
import type { FreezeAttributes } from '../domain/freeze/freeze-attributes';
import type { ScheduledFreezeEvent } from '../domain/freeze/scheduled-freeze';

/**
 * The public shape of a freeze's attributes: what responses echo (with the id) and what the
 * scheduled_freeze.* log events snapshot. One function, so the two can never drift apart.
 */
export interface ScheduledFreezeAttributesJson {
  reason: string;
  start: string;
  end: string | null;
  timezone: string;
  matching_conditions: Condition[];
  exclude_conditions: Condition[];
}

export interface ScheduledFreezeJson extends ScheduledFreezeAttributesJson {
  id: string;
}

export const scheduledFreezeAttributesJson = (
  attributes: FreezeAttributes,
): ScheduledFreezeAttributesJson => ({
  reason: attributes.reason,
  start: attributes.start,
  end: attributes.end,
  timezone: attributes.timezone,
  matching_conditions: attributes.matchingConditions,
  exclude_conditions: attributes.excludeConditions,
});

export const scheduledFreezeJson = (
  id: string,
  attributes: ScheduledFreezeAttributesJson,
): ScheduledFreezeJson => ({
  id,
  reason: attributes.reason,
  start: attributes.start,
  end: attributes.end,
  timezone: attributes.timezone,
  matching_conditions: attributes.matching_conditions,
  exclude_conditions: attributes.exclude_conditions,
});

/** The answer to a write comes from its event, the same attributes the projection stores. */
export function scheduledFreezeJsonOf(event: ScheduledFreezeEvent): ScheduledFreezeJson {
  switch (event.type) {
    case 'scheduled_freeze.scheduled':
      return scheduledFreezeJson(event.data.freezeId, scheduledFreezeAttributesJson(event.data.attributes));
    case 'scheduled_freeze.changed':
      return scheduledFreezeJson(event.data.freezeId, scheduledFreezeAttributesJson(event.data.after));
    case 'scheduled_freeze.cancelled':
      throw new Error('A cancelled freeze has no attributes to answer with');
  }
}
