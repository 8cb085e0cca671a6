import type { ErrorType, StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';

/**
 * The client's errors are recognised by their `type` tag rather than instanceof, so this module
 * needs only the client's types and the client itself is loaded lazily (see EsdbEventStore.open).
 */
const hasType = (error: unknown, type: `${ErrorType}`): boolean =>
  typeof error === 'object' && error !== null && (error as { type?: unknown }).type === type;

export const isWrongExpectedVersion = (error: unknown): error is WrongExpectedVersionError =>
  hasType(error, 'wrong-expected-version');

export const isStreamNotFound = (error: unknown): error is StreamNotFoundError =>
  hasType(error, 'stream-not-found');
