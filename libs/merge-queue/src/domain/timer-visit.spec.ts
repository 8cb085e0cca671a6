import {
  command,
  compositions,
  configure,
  enqueue,
  minutes,
  policyWith,
  run,
  stateOf,
  then,
  withDrafts,
} from '../testing/queue-commands';
import { nextWakeAt } from './planner';
import { timerVisit } from './timer-visit';

/** Batches of three that wait two minutes for company; #1 queued alone at minute 0. */
const waiting = () =>
  run([configure(policyWith({}, { batchSize: 3, batchMaxWaitTime: 120 })), enqueue(1, 0)]).events;

describe('the queue timer’s decision', () => {
  it('visits nothing in a queue without pull requests', () => {
    expect(timerVisit(stateOf(run([configure(policyWith())]).events), minutes(5))).toEqual({
      tick: false,
      refreshFreezes: false,
    });
  });

  it('lets the freeze calendar look at every queue holding pull requests, and ticks only when a decision is due', () => {
    const state = stateOf(waiting());
    expect(nextWakeAt(state, minutes(1))).toBe(minutes(2));
    expect(timerVisit(state, minutes(1))).toEqual({ tick: false, refreshFreezes: true });
  });

  it('ticks for a batch whose batch_max_wait_time ran out while nobody looked, and the tick starts it', () => {
    const history = waiting();
    // The timer looks every second or so: it sees a wait that is over, not the instant it ends.
    expect(nextWakeAt(stateOf(history), minutes(3))).toBe(minutes(3));
    expect(timerVisit(stateOf(history), minutes(3))).toEqual({ tick: true, refreshFreezes: true });
    const ticked = then(history, command('tick', 3, {}));
    expect(compositions(ticked.slice(history.length))).toEqual([[1]]);
    expect(timerVisit(stateOf(ticked), minutes(3))).toEqual({ tick: false, refreshFreezes: true });
  });

  it('ticks for checks past their timeout', () => {
    const history = withDrafts(
      run([configure(policyWith({}, { checksTimeout: 120 })), enqueue(1, 0)]).events,
      0,
    );
    expect(timerVisit(stateOf(history), minutes(1)).tick).toBe(false);
    expect(timerVisit(stateOf(history), minutes(5)).tick).toBe(true);
  });
});
