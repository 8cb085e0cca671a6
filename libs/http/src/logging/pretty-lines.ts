import { prettyFactory, type MessageFormatFunc } from 'pino-pretty';
import { REQUEST_COMPLETED } from './request-log';

/** A stream pino writes its lines to, with the flushes it calls when it has them. */
export interface LineStream {
  write(line: string): unknown;
  flushSync?(): void;
  flush?(done?: (error?: Error) => void): void;
}

/**
 * Fields a pretty line does not print: the same on every line (`service`), or said by the message
 * (a Nest line's context). The request id stays in JSON, where lines are searched; a person at a
 * terminal reads them in order.
 */
const SAID_OTHERWISE = 'pid,hostname,service,context,reqId';

/** A request's line says its method, url, status and time as its message, and no fields. */
function requestLineAsMessage(log: Record<string, unknown>): Record<string, unknown> {
  const { method, url, statusCode, responseTime, ...rest } = log;
  const milliseconds = typeof responseTime === 'number' ? ` ${responseTime.toFixed(1)} ms` : '';
  return { ...rest, msg: `${String(method)} ${String(url)} ${String(statusCode)}${milliseconds}` };
}

const formatMessage: MessageFormatFunc = (log, messageKey) => {
  const message = String(log[messageKey] ?? '');
  return typeof log.context === 'string' ? `${log.context}: ${message}` : message;
};

/**
 * Log lines for a person (LOG_FORMAT=pretty, or a terminal): `[12:04:05.120] INFO: GET /v1/… 200
 * 1.4 ms`, one line each, other fields after the message as JSON, errors with their stacks; in
 * colour where the terminal shows it. Each JSON line pino makes is turned into one of these and
 * handed to `out` (stdout, in batches), so the flushes pino calls still reach it.
 */
export function prettyLines(out: LineStream, options: { colorize?: boolean } = {}): LineStream {
  const pretty = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: SAID_OTHERWISE,
    singleLine: true,
    messageFormat: formatMessage,
    ...(options.colorize === undefined ? {} : { colorize: options.colorize }),
  });
  return {
    write: (line: string) => {
      const log = JSON.parse(line) as Record<string, unknown>;
      return out.write(pretty(log.msg === REQUEST_COMPLETED ? requestLineAsMessage(log) : log));
    },
    flushSync: () => out.flushSync?.(),
    flush: (done?: (error?: Error) => void) => {
      if (out.flush) return out.flush(done);
      out.flushSync?.();
      done?.();
    },
  };
}
