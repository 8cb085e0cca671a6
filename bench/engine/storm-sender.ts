import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * bench:engine --storm's load generator, in a worker thread of its own so that its event loop is
 * not the service's: it sends signed deliveries open-loop at a fixed rate (each at its scheduled
 * moment, whether or not the ones before it were answered) and times each from that moment, so a
 * stalled door shows as the queueing it causes instead of slowing the sender down.
 */
export interface StormDelivery {
  id: string;
  event: string;
  body: string;
}

export interface StormJob {
  url: string;
  secret: string;
  rate: number;
  deliveries: StormDelivery[];
}

export interface StormAnswer {
  id: string;
  event: string;
  /** Epoch ms the delivery was due. */
  scheduledAt: number;
  /** From its due moment to the last byte of the answer; Infinity when it failed or timed out. */
  latencyMs: number;
  status: number;
  /** The door's `status` field: recorded, duplicate, ignored; or the error. */
  answer: string;
}

/** GitHub gives up on a delivery that is not answered within 10 s (and does not send it again). */
export const GITHUB_TIMEOUT_MS = 10_000;

function send(
  agent: Agent,
  url: URL,
  secret: string,
  delivery: StormDelivery,
): Promise<{ status: number; text: string }> {
  const signature = `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;
  return new Promise((resolve) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(delivery.body),
          'user-agent': 'GitHub-Hookshot/bench-storm',
          'x-github-event': delivery.event,
          'x-github-delivery': delivery.id,
          'x-hub-signature-256': signature,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', (error) => resolve({ status: 0, text: error.message }));
      },
    );
    // The whole exchange, as GitHub times it, not the socket's idle time.
    const timer = setTimeout(() => outgoing.destroy(new Error('timed out')), GITHUB_TIMEOUT_MS);
    outgoing.on('close', () => clearTimeout(timer));
    outgoing.on('error', (error) => resolve({ status: 0, text: error.message }));
    outgoing.end(delivery.body);
  });
}

async function run(job: StormJob): Promise<StormAnswer[]> {
  const url = new URL(job.url);
  const agent = new Agent({ keepAlive: true });
  const started = Date.now() + 50;
  const answers: Promise<StormAnswer>[] = [];
  let next = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = Date.now();
      while (next < job.deliveries.length && started + (next * 1000) / job.rate <= now) {
        const delivery = job.deliveries[next]!;
        const scheduledAt = started + (next * 1000) / job.rate;
        answers.push(
          send(agent, url, job.secret, delivery).then(({ status, text }) => {
            let answer = text;
            try {
              answer = String((JSON.parse(text) as { status?: unknown; detail?: unknown }).status ?? text);
            } catch {
              // Not JSON: keep the text, it says what went wrong.
            }
            return {
              id: delivery.id,
              event: delivery.event,
              scheduledAt,
              latencyMs: status === 0 ? Number.POSITIVE_INFINITY : Date.now() - scheduledAt,
              status,
              answer,
            };
          }),
        );
        next += 1;
      }
      if (next < job.deliveries.length) setTimeout(tick, 2);
      else done();
    };
    tick();
  });
  const all = await Promise.all(answers);
  agent.destroy();
  return all;
}

void run(workerData as StormJob).then((answers) => parentPort!.postMessage(answers));
