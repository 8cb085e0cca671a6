/** One stream per token. */
export const SERVICE_TOKEN_STREAM_PREFIX = 'service_token-';

export const serviceTokenStreamId = (tokenId: string): string => `${SERVICE_TOKEN_STREAM_PREFIX}${tokenId}`;
