export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: string,
    readonly actual: bigint,
  ) {
    super(`Stream ${streamId}: expected revision ${expected}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export class DuplicateEventError extends Error {
  constructor(readonly eventIds: readonly string[]) {
    super(`Event id already stored: ${eventIds.join(', ')}`);
    this.name = 'DuplicateEventError';
  }
}

export class EmptyAppendError extends Error {
  constructor(streamId: string) {
    super(`Refusing to append an empty batch to ${streamId}`);
    this.name = 'EmptyAppendError';
  }
}

export const describeExpected = (expected: bigint | string): string =>
  typeof expected === 'bigint' ? expected.toString() : expected;
