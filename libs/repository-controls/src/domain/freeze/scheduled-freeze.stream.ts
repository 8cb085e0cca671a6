/** One stream per freeze: freezes of one repository never contend with each other. */
export const scheduledFreezeStreamId = (freezeId: string): string =>
  `scheduled_freeze-${freezeId.toLowerCase()}`;
