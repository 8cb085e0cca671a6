import type { Decider } from '@switchyard/kernel';

/**
 * Domain tests read given(events).when(command).then(events), in emmett's style:
 *   spec.given([paused]).when(unpause).then([unpaused])
 *   spec.given([]).when(unpause).thenThrows(DomainError, /not paused/)
 */
export const DeciderSpecification = {
  for<State, Command, Event>(decider: Decider<State, Command, Event>) {
    return {
      given(history: Event[]) {
        return {
          when(command: Command) {
            const run = () => {
              const state = history.reduce((s, e) => decider.evolve(s, e), decider.initialState());
              return decider.decide(command, state);
            };
            return {
              then(expected: Event[]) {
                expect(run()).toEqual(expected);
              },
              thenNothingHappened() {
                expect(run()).toEqual([]);
              },
              thenThrows(errorType: new (...args: never[]) => Error, message?: RegExp | string) {
                let thrown: unknown;
                try {
                  run();
                } catch (error) {
                  thrown = error;
                }
                expect(thrown).toBeInstanceOf(errorType);
                if (message) expect((thrown as Error).message).toMatch(message);
                return thrown as Error;
              },
            };
          },
        };
      },
    };
  },
};
