import type { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The origin the Nest app's HTTP server listens on, or null before it listens. */
export function listeningOrigin(adapterHost: HttpAdapterHost): string | null {
  const server = adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  const address = server?.address() as AddressInfo | string | null | undefined;
  if (!address || typeof address === 'string') return null;
  const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
