import cloud from '@octokit/webhooks-examples/api.github.com/index.json';
import ghes31 from '@octokit/webhooks-examples/ghes-31/index.json';
import ghes32 from '@octokit/webhooks-examples/ghes-32/index.json';
import ghes33 from '@octokit/webhooks-examples/ghes-33/index.json';
import ghes34 from '@octokit/webhooks-examples/ghes-34/index.json';
import ghes35 from '@octokit/webhooks-examples/ghes-35/index.json';
import { DeliverySchemas } from './delivery-schemas';
import { INTAKE_READS } from './intake-reads';
import cut from './intake-schemas.json';
import { cutIntakeSchemas } from './intake-schemas.source';

type ExampleGroup = { name: string; examples: Record<string, unknown>[] };

const sets: Record<string, ExampleGroup[]> = {
  'github.com': cloud as ExampleGroup[],
  'GHES 3.1': ghes31 as ExampleGroup[],
  'GHES 3.2': ghes32 as ExampleGroup[],
  'GHES 3.3': ghes33 as ExampleGroup[],
  'GHES 3.4': ghes34 as ExampleGroup[],
  'GHES 3.5': ghes35 as ExampleGroup[],
};

describe("the intake's schemas, cut from GitHub's published webhook schemas", () => {
  const schemas = new DeliverySchemas();

  it('are the cut of the installed @octokit/openapi-webhooks (run generate-intake-schemas.ts when not)', () =>
    expect(cut).toEqual(cutIntakeSchemas()));

  it('cover every event type the intake reads', () =>
    expect(Object.keys(cut.events).sort()).toEqual(Object.keys(INTAKE_READS).sort()));

  it.each(Object.keys(sets))("let every one of GitHub's own examples through (%s)", (set) => {
    const read = sets[set]!.filter((group) => group.name in INTAKE_READS);
    const refused = read.flatMap((group) =>
      group.examples.flatMap((payload) => {
        const check = schemas.check(group.name, payload);
        return check.ok ? [] : [`${group.name}.${String(payload.action)}: ${check.field} ${check.problem}`];
      }),
    );
    expect(read.reduce((count, group) => count + group.examples.length, 0)).toBeGreaterThan(
      set === 'github.com' ? 60 : 5,
    );
    expect(refused).toEqual([]);
  });
});
