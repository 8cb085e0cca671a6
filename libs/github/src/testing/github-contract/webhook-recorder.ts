import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitHubWebhookContract } from './github-webhook-contract';

export interface RecordedDelivery {
  readonly event: string;
  readonly action: string | undefined;
  readonly delivery: string;
  readonly headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads are asserted field by field
  readonly payload: any;
  readonly signatureValid: boolean;
  readonly violations: readonly string[];
}

type Waiter = {
  match: (delivery: RecordedDelivery) => boolean;
  resolve: (delivery: RecordedDelivery) => void;
};

/**
 * An HTTP endpoint that receives webhooks as a GitHub App's would: it checks each delivery's
 * `X-Hub-Signature-256` over the raw body and its payload against GitHub's webhook description,
 * and keeps them, so a test can wait for a delivery (no sleeping) and assert on all of them.
 */
export class WebhookRecorder {
  readonly deliveries: RecordedDelivery[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly contract = GitHubWebhookContract.load();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private secret: () => string,
  ) {}

  static async start(secret: () => string): Promise<WebhookRecorder> {
    let recorder: WebhookRecorder | null = null;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        recorder!.receive(Buffer.concat(chunks), request.headers);
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    recorder = new WebhookRecorder(server, `http://127.0.0.1:${port}/webhooks/github`, secret);
    return recorder;
  }

  /** Resolves with the first delivery (already received or yet to come) that matches. */
  waitFor(match: (delivery: RecordedDelivery) => boolean): Promise<RecordedDelivery> {
    const found = this.deliveries.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.add({ match, resolve }));
  }

  of(event: string, action?: string): RecordedDelivery[] {
    return this.deliveries.filter(
      (delivery) => delivery.event === event && (action === undefined || delivery.action === action),
    );
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(raw: Buffer, headers: Record<string, string | string[] | undefined>) {
    const event = String(headers['x-github-event'] ?? '');
    const signature = String(headers['x-hub-signature-256'] ?? '');
    const expected = `sha256=${createHmac('sha256', this.secret()).update(raw).digest('hex')}`;
    const signatureValid =
      signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    const payload = JSON.parse(raw.toString('utf8'));
    const delivery: RecordedDelivery = {
      event,
      action: typeof payload.action === 'string' ? payload.action : undefined,
      delivery: String(headers['x-github-delivery'] ?? ''),
      headers,
      payload,
      signatureValid,
      violations: this.contract.check(event, payload),
    };
    this.deliveries.push(delivery);
    for (const waiter of [...this.waiters]) {
      if (!waiter.match(delivery)) continue;
      this.waiters.delete(waiter);
      waiter.resolve(delivery);
    }
  }
}
