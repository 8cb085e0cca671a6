import pino, { type DestinationStream, type Logger } from 'pino';
import type { HttpSettings } from '../http-settings';
import { prettyLines } from './pretty-lines';

/** Lines wait until this many characters are pending, or LOG_FLUSH_MS have passed since the first of them. */
export const LOG_BATCH_CHARS = 4096;
export const LOG_FLUSH_MS = 100;

type Destination = ReturnType<typeof pino.destination>;

/** Batches not written yet, written out when the process exits (one listener for all of them). */
const unflushed = new Set<BatchedStdout>();
let exitListener = false;

/**
 * Stdout, written in batches: a busy process makes one write for a dozen request lines instead of
 * one each. Lines are joined here and each batch is handed whole to pino's destination (sonic-boom,
 * which writes it at once and handles partial writes and EAGAIN): giving it every line instead,
 * with its own minimum length, cost about 1 µs more a line (in a loop), as it measures its whole
 * pending buffer on each write. The batch is written synchronously, as pino's destination does by
 * default: one write system call per batch costs the event loop less than handing it to libuv's
 * thread pool and hearing back. A line reaches stdout within LOG_FLUSH_MS at most; a process with nothing to
 * log has no timer running and makes no writes; what is pending is written when the process exits.
 */
export class BatchedStdout {
  private readonly out: Destination;
  private batch = '';
  private timer: NodeJS.Timeout | null = null;
  private ended = false;

  /** `dest`: a file descriptor (stdout by default) or a file path. */
  constructor(dest: number | string = 1) {
    this.out = pino.destination({ dest, sync: true });
  }

  /** pino's destination stream. */
  readonly stream = {
    write: (line: string): boolean => {
      this.batch += line;
      if (this.batch.length >= LOG_BATCH_CHARS) this.flush();
      else this.arm();
      return true;
    },
    /** pino calls it for fatal lines and `logger.flush()`. */
    flushSync: (): void => this.flush(),
    flush: (done?: (error?: Error) => void): void => {
      this.flush();
      done?.();
    },
  };

  /** Writes what is pending, then closes the file; `done` once it is closed. */
  end(done: () => void): void {
    this.flush();
    this.ended = true;
    this.out.once('close', () => done());
    this.out.end();
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    unflushed.delete(this);
    const batch = this.batch;
    this.batch = '';
    // Lines logged after end() have nowhere to go.
    if (batch !== '' && !this.ended) this.out.write(batch);
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), LOG_FLUSH_MS);
    this.timer.unref();
    unflushed.add(this);
    if (!exitListener) {
      exitListener = true;
      process.once('exit', () => unflushed.forEach((batched) => batched.flush()));
    }
  }
}

/** Whether a logger writing to stdout writes for a person: asked, or `auto` on a terminal. */
export const writesPretty = (format: HttpSettings['logFormat'], stdoutIsTerminal: boolean): boolean =>
  format === 'pretty' || (format === 'auto' && stdoutIsTerminal);

/**
 * The process logger: lines on stdout (see BatchedStdout), JSON or for a person (LOG_FORMAT; see
 * prettyLines), level from configuration. Credentials never reach a log line: Fastify's request
 * serializer leaves headers out, and these paths are redacted in case someone logs a request
 * object by hand. Given a destination (tests), it writes JSON there.
 */
export function createLogger(
  settings: Pick<HttpSettings, 'logLevel'> & Partial<Pick<HttpSettings, 'logFormat'>>,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: settings.logLevel,
    base: { service: 'switchyard' },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'req.headers.cookie',
        'headers.cookie',
        'cookie',
        // The dashboard's sign-in body.
        '*.credential',
        'credential',
        '*.secret',
        'secret',
      ],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination);
  const stdout = new BatchedStdout().stream;
  const pretty = writesPretty(settings.logFormat ?? 'auto', process.stdout.isTTY === true);
  return pino(options, pretty ? prettyLines(stdout) : stdout);
}
