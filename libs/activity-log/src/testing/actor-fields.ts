/**
 * The metadata keys that break Mergify's pairing rule: a `<verb>_by` actor without a boolean
 * `<verb>_by_staff` beside it, or a staff flag without its actor. Mapping specs run every record
 * through it, so a new event with an actor cannot skip actorMetadata unnoticed.
 */
export function unpairedActorFields(metadata: Record<string, unknown>): string[] {
  const keys = Object.keys(metadata);
  const actors = keys.filter((key) => key.endsWith('_by'));
  const flags = keys.filter((key) => key.endsWith('_by_staff'));
  return [
    ...actors.filter((key) => typeof metadata[`${key}_staff`] !== 'boolean'),
    ...flags.filter((key) => !(key.slice(0, -'_staff'.length) in metadata)),
  ];
}
