import { createHash } from 'node:crypto';
import { join } from 'node:path';
import ts from 'typescript';
import { snapshottingMergeQueueDecider } from './merge-queue.stream';

/**
 * The snapshot is the queue state as JSON; a snapshot of an older shape read as the new one would
 * be a state the decider never made. So the shape and the version move together: this records the
 * version and a fingerprint of `QueueState` as the compiler sees it, every nested property and type
 * spelled out, and fails when one changes without the other.
 */
const RECORDED = {
  version: 6,
  fingerprint: 'a4c48ebda3116fcd',
};

function queueStateShape(): string {
  const file = join(__dirname, '../domain/state.ts');
  const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const declaration = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'QueueState',
  )!;
  const lines: string[] = [];
  const seen = new Set<ts.Type>();
  const describe = (type: ts.Type, path: string): void => {
    lines.push(`${path}: ${checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation)}`);
    const parts = type.isUnion() || type.isIntersection() ? type.types : [type];
    // A named union (QueueMode) prints as its name: spell out its members too.
    if (type.isUnion())
      lines.push(`${path} = ${parts.map((part) => checker.typeToString(part)).join(' | ')}`);
    for (const part of parts) {
      const element = checker.isArrayType(part)
        ? checker.getTypeArguments(part as ts.TypeReference)[0]!
        : part;
      if (!(element.flags & ts.TypeFlags.Object) || seen.has(element)) continue;
      seen.add(element);
      for (const property of checker.getPropertiesOfType(element)) {
        describe(
          checker.getTypeOfSymbol(property),
          `${path}.${property.name}${property.flags & ts.SymbolFlags.Optional ? '?' : ''}`,
        );
      }
      const index = checker.getIndexTypeOfType(element, ts.IndexKind.String);
      if (index) describe(index, `${path}[string]`);
    }
  };
  describe(checker.getTypeAtLocation(declaration), 'QueueState');
  return lines.join('\n');
}

describe('the merge-queue snapshot', () => {
  it('changes its version whenever QueueState changes shape', () => {
    const fingerprint = createHash('sha256').update(queueStateShape()).digest('hex').slice(0, 16);
    const version = snapshottingMergeQueueDecider.snapshots.version;
    const advice =
      version === RECORDED.version
        ? `QueueState changed shape: bump snapshots.version in merge-queue.stream.ts, then record { version: ${version + 1}, fingerprint } here`
        : `snapshots.version is now ${version}: record { version: ${version}, fingerprint: '${fingerprint}' } here`;
    expect({ version, fingerprint, advice }).toEqual({ ...RECORDED, advice });
  });
});
