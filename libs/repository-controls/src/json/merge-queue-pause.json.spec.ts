import { mergeQueuePauseJson } from './merge-queue-pause.json';

describe('mergeQueuePauseJson', () => {
  it('answers a pause with its reason and RFC 3339 time, and no pause with nulls', () => {
    const pausedAt = new Date('2026-05-01T10:00:00.123Z');
    expect(mergeQueuePauseJson({ reason: 'release', pausedAt })).toEqual({
      paused: true,
      reason: 'release',
      paused_at: '2026-05-01T10:00:00.123Z',
    });
    expect(mergeQueuePauseJson(null)).toEqual({ paused: false, reason: null, paused_at: null });
  });

  it('gives each view its own answer, made once', () => {
    const view = { reason: 'a', pausedAt: new Date('2026-05-01T10:00:00Z') };
    const other = { reason: 'b', pausedAt: new Date('2026-05-02T10:00:00Z') };
    expect(mergeQueuePauseJson(view)).toBe(mergeQueuePauseJson(view));
    expect(mergeQueuePauseJson(other)).toMatchObject({ reason: 'b', paused_at: '2026-05-02T10:00:00.000Z' });
  });
});
