import { defineRule, issueShapes, RANK_FORMAT } from '@switchyard/http';
import type { ValidationOptions } from 'class-validator';
import { conditionListProblems } from '../../domain/conditions/condition-shape';

const pathText = (path: (string | number)[]): string =>
  path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');

/**
 * A freeze condition list: strings or {and|or|not} groups, shape-checked by the domain's rule (the
 * condition parser will add syntax checks there). The message points at the offending element.
 */
const conditionList = defineRule<[]>({
  name: 'isFreezeConditionList',
  rank: RANK_FORMAT,
  test: (value) => conditionListProblems(value).length === 0,
  describe(value) {
    if (!Array.isArray(value)) return issueShapes.listType();
    const [problem] = conditionListProblems(value);
    return issueShapes.valueError(
      problem ? `${pathText(problem.path)}: ${problem.message}` : 'Invalid conditions',
    );
  },
});

export const IsConditionList = (options?: ValidationOptions): PropertyDecorator => conditionList([], options);
