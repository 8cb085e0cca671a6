/**
 * The time a command is recorded at: its own clock reading, but never before the stream's last
 * event. Two racing requests read the clock in one order and may append in the other (the command
 * service re-decides the loser on fresh state); without this the log could show an update older
 * than the create it follows.
 */
export const recordedAt = (commandAt: Date, lastEventAt: string | null): Date =>
  lastEventAt !== null && Date.parse(lastEventAt) > commandAt.getTime() ? new Date(lastEventAt) : commandAt;
