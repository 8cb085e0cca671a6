import type { EventStore } from '@switchyard/event-store';
import { loadStreamState } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import { mergeQueuePauseDecider, mergeQueuePauseStreamId } from '@switchyard/repository-controls';
import type { MergeQueueCommand } from '../domain/commands';
import type { QueueState } from '../domain/state';
import type { FreezeWatch } from './freeze-watch';

/** The queue a merge is for, as the effects read it. */
export interface MergingQueue {
  repository: string;
  baseRef: string;
  state: QueueState;
}

/** Records one command on the queue (the effects reactor's own way, fenced). */
export type RecordHold = (command: MergeQueueCommand) => Promise<void>;

interface PauseNow {
  revision: bigint;
  paused: boolean;
  reason: string | null;
}

/** Rounds of re-reading a pause that keeps changing under the hold being recorded. */
const PAUSE_RECONCILE_ROUNDS = 5;

/**
 * The last look before a merge (queue-semantics §4.1, §4.3): the queue's state may not know yet of
 * a pause or a freeze window (the intake and the timer tell it later), so right before the code-host
 * call the merge is checked against the repository's pause and the freeze calendar of now.
 *
 * The pause is read from its own stream, not from a read model: `PUT …/merge-queue/pause` answers
 * only after its event is stored, so once it has answered no merge checked after that goes through.
 * A hold is recorded on the queue as the command the intake or the timer would have issued
 * (set_pause, set_frozen), so the queue's state, status and log say why the merge waits.
 */
export class MergeGate {
  constructor(
    private readonly store: EventStore,
    private readonly freezes: Pick<FreezeWatch, 'frozenAt'>,
    private readonly clock: Clock,
  ) {}

  /** Whether the merge of `merging` must wait; if so, the hold is recorded through `record`. */
  async holds(queue: MergingQueue, merging: readonly number[], record: RecordHold): Promise<boolean> {
    const pause = await this.pauseNow(queue.repository);
    if (pause.paused) {
      await this.recordPause(queue, pause, record);
      return true;
    }
    const now = this.clock.now();
    const queued = Object.keys(queue.state.pullRequests).map(Number);
    const frozen = await this.freezes.frozenAt(queue.repository, queued, now);
    if (!merging.some((number) => frozen.includes(number))) return false;
    await record({
      kind: 'set_frozen',
      repository: queue.repository,
      baseRef: queue.baseRef,
      at: now.getTime(),
      pullRequests: frozen,
    });
    return true;
  }

  private async pauseNow(repository: string): Promise<PauseNow> {
    const { state, revision } = await loadStreamState(
      this.store,
      mergeQueuePauseStreamId(repository),
      mergeQueuePauseDecider,
    );
    return { revision, paused: state.pause !== null, reason: state.pause?.reason ?? null };
  }

  /**
   * Records the pause on the queue. The intake records each pause event on the queue too, in the
   * order of the pause stream; a pause read here may be older than one the intake records first
   * (an unpause right after the read), so the stream is read again after each record until it did
   * not move: the last record of this hold is then as new as the stream, and any later change of the
   * pause reaches the queue through the intake after it.
   */
  private async recordPause(queue: MergingQueue, first: PauseNow, record: RecordHold): Promise<void> {
    let pause = first;
    for (let round = 0; round < PAUSE_RECONCILE_ROUNDS; round++) {
      await record({
        kind: 'set_pause',
        repository: queue.repository,
        baseRef: queue.baseRef,
        at: this.clock.now().getTime(),
        paused: pause.paused,
        reason: pause.reason,
      });
      const again = await this.pauseNow(queue.repository);
      if (again.revision === pause.revision) return;
      pause = again;
    }
  }
}
