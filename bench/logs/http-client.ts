import { Agent, request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * GET over one kept-alive socket with node:http: the SQL side is timed through node-postgres on
 * its own connection, so the HTTP side gets a client as lean (global fetch adds about 0.07 ms a
 * request here).
 */
export function keepAliveClient(
  baseUrl: string,
): (path: string, headers?: Record<string, string>) => Promise<HttpAnswer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (path, headers = {}) =>
    new Promise((resolve, reject) => {
      const outgoing = request(`${baseUrl}${path}`, { agent, headers }, (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
        );
        incoming.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
}
