/** One stream per key: revocations never contend with anything but the same key. */
export const APPLICATION_KEY_STREAM_PREFIX = 'application_key-';

export const applicationKeyStreamId = (keyId: string): string => `${APPLICATION_KEY_STREAM_PREFIX}${keyId}`;
