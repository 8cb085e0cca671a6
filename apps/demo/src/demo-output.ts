import { MultiBar, type SingleBar } from 'cli-progress';
import { styleText } from 'node:util';
import type { Narration, NarrationKind } from './queue-narrator';

export interface QueueProgress {
  readonly settled: number;
  readonly total: number;
  readonly merged: number;
  readonly dequeued: number;
}

/**
 * Where the demo speaks. On a terminal: colours and a live progress bar under the narration;
 * piped: plain lines only, one per thing said, so the output reads (and parses) as a log.
 */
export interface DemoOutput {
  /** A line of the demo's own (setting up, the summary). */
  say(line: string): void;
  /** A line of the queue's story, with the seconds since the queue's first event. */
  narrate(narration: Narration, seconds: number): void;
  progress(progress: QueueProgress): void;
  /** Ends the progress display (the bar stays as last drawn). */
  done(): void;
}

/** The mark before each narrated line; the same in colour and in plain text. */
const MARKS: Record<NarrationKind, string> = {
  entered: '→',
  batch: '▤',
  checks: '⚙',
  bisection: '✂',
  merged: '✔',
  dequeued: '✘',
  waiting: '…',
};

const COLOURS: Record<NarrationKind, Parameters<typeof styleText>[0]> = {
  entered: 'cyan',
  batch: 'blue',
  checks: 'gray',
  bisection: 'magenta',
  merged: 'green',
  dequeued: 'red',
  waiting: 'yellow',
};

/** `[  12.3s] ✔ #4 merged`: what both outputs print for a narration (colour aside). */
export const narrationLine = (narration: Narration, seconds: number): string =>
  `[${seconds.toFixed(1).padStart(6)}s] ${MARKS[narration.kind]} ${narration.text}`;

export function plainOutput(write: (text: string) => void): DemoOutput {
  return {
    say: (line) => write(`${line}\n`),
    narrate: (narration, seconds) => write(`${narrationLine(narration, seconds)}\n`),
    progress: () => undefined,
    done: () => undefined,
  };
}

export function terminalOutput(stream: NodeJS.WriteStream): DemoOutput {
  const colour = (format: Parameters<typeof styleText>[0], text: string) =>
    styleText(format, text, { stream });
  const bars = new MultiBar({
    stream,
    format: `${colour('bold', 'queue')} {bar} {settled}/{total} settled · {merged} merged · {dequeued} dequeued · {duration}s`,
    barCompleteChar: '█',
    barIncompleteChar: '░',
    barsize: 24,
    hideCursor: true,
    clearOnComplete: false,
    gracefulExit: true,
  });
  let bar: SingleBar | null = null;
  // Until the bar exists (setting up), lines go straight out; afterwards through the bar, above it.
  const line = (text: string) => (bar ? bars.log(`${text}\n`) : stream.write(`${text}\n`));
  return {
    say: (text) => line(text),
    narrate: (narration, seconds) => line(colour(COLOURS[narration.kind], narrationLine(narration, seconds))),
    progress: ({ settled, total, merged, dequeued }) => {
      bar ??= bars.create(total, 0, { settled: 0, total, merged: 0, dequeued: 0 });
      bar.update(settled, { settled, total, merged, dequeued });
    },
    done: () => {
      if (!bar) return;
      // The bar draws (and writes the lines logged above it) on a timer: draw once more, the
      // last lines and the final count, before stopping; what follows goes straight out.
      bars.update();
      bars.stop();
      bar = null;
    },
  };
}

export const demoOutput = (stream: NodeJS.WriteStream): DemoOutput =>
  stream.isTTY ? terminalOutput(stream) : plainOutput((text) => stream.write(text));
