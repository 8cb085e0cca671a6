import { registerDecorator, type ValidationOptions } from 'class-validator';
import { registerIssueDescriber } from './issue-describers';
import type { IssueShape } from './validation-issue';

/**
 * A class-validator rule and its pydantic-style description, declared together so a new rule can
 * never report a failure the 422 body cannot describe.
 */
export interface RuleDefinition<Args extends readonly unknown[]> {
  /** The constraint key class-validator reports; unique across the code base. */
  name: string;
  rank: number;
  test(value: unknown, args: Args): boolean;
  describe(value: unknown, args: Args): IssueShape;
}

export function defineRule<Args extends readonly unknown[]>(
  rule: RuleDefinition<Args>,
): (args: Args, options?: ValidationOptions) => PropertyDecorator {
  registerIssueDescriber(rule.name, {
    rank: rule.rank,
    test: (value, constraints) => rule.test(value, constraints as unknown as Args),
    describe: (value, constraints) => rule.describe(value, constraints as unknown as Args),
  });
  return (args, options) => (target, propertyKey) => {
    registerDecorator({
      name: rule.name,
      target: target.constructor,
      propertyName: String(propertyKey),
      constraints: [...args],
      options,
      validator: {
        validate: (value: unknown) => rule.test(value, args),
        defaultMessage: (validation) => rule.describe(validation?.value, args).msg,
      },
    });
  };
}
