/**
 * A pure decision model (emmett's decider shape): decide turns a command and the current state into
 * new events, or throws a DomainError; evolve folds one event into state. Time and ids arrive inside
 * the command, so decide is deterministic.
 */
export interface Decider<State, Command, Event> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}
