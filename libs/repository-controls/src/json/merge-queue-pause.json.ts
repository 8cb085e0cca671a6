import { toRfc3339 } from '@switchyard/kernel';
import type { PauseView } from '../projections/merge-queue-pause.read-model';

/** MergeQueuePause: `{paused: false, reason: null, paused_at: null}` when not paused. */
export interface MergeQueuePauseJson {
  paused: boolean;
  reason: string | null;
  paused_at: string | null;
}

/** Legacy QueuePause, one per pause (so zero or one). */
export interface QueuePauseJson {
  reason: string;
  pause_date: string;
}

/**
 * Each view's answer, made once: GET pause hands out the same cached view for up to a second, and
 * formatting its date was a visible part of that cheap request. Answers are shared: never modify one.
 */
const answered = new WeakMap<PauseView, MergeQueuePauseJson>();

export const mergeQueuePauseJson = (pause: PauseView | null): MergeQueuePauseJson => {
  if (!pause) return { paused: false, reason: null, paused_at: null };
  let json = answered.get(pause);
  if (!json) {
    json = { paused: true, reason: pause.reason, paused_at: toRfc3339(pause.pausedAt) };
    answered.set(pause, json);
  }
  return json;
};

export const legacyQueuePauseJson = (pause: PauseView | null): { queue_pause: QueuePauseJson[] } => ({
  queue_pause: pause ? [{ reason: pause.reason, pause_date: toRfc3339(pause.pausedAt) }] : [],
});
