import { type Document, LineCounter, parseDocument } from 'yaml';

/** The `yaml` document of a text, every node with its range, and the line index to turn offsets into lines. */
export interface PositionedDocument {
  document: Document;
  lines: LineCounter;
}

/**
 * The authoritative reading of the text: `yaml` with `<<` merge keys, YAML 1.2 core schema, duplicate
 * keys refused. Its verdict, messages and positions are what users see.
 */
export function parsePositionedDocument(text: string): PositionedDocument {
  const lines = new LineCounter();
  const document = parseDocument(text, { merge: true, lineCounter: lines, prettyErrors: true });
  return { document, lines };
}
