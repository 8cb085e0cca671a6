/** Truncates to the second, the precision freeze times are kept in. */
export const truncateToSecond = (instant: Date): Date =>
  new Date(Math.floor(instant.getTime() / 1000) * 1000);
