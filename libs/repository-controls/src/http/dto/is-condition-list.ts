import { formatPath } from '@switchyard/mergify-config/conditions';
import { defineRule, issueShapes, RANK_FORMAT, RANK_TYPE } from '@switchyard/http';
import type { ValidationOptions } from 'class-validator';
import { conditionProblems, MAX_CONDITIONS_PER_LIST } from '../../domain/conditions/condition-shape';

/**
 * A freeze condition list: a list of at most 500 conditions, each a string or an {and|or|not}
 * block that the condition language accepts. A bad condition is reported at its position in the
 * list (`loc: ["body", "matching_conditions", 2]`), with the parser's detail in the message and the
 * path inside the condition when it is nested (`and[1]: Invalid condition 'lable=x'. …`).
 */
const conditionListShape = defineRule<[]>({
  name: 'isFreezeConditionList',
  rank: RANK_TYPE,
  test: (value) => Array.isArray(value) && value.length <= MAX_CONDITIONS_PER_LIST,
  describe: (value) =>
    Array.isArray(value) ? issueShapes.tooLong(MAX_CONDITIONS_PER_LIST) : issueShapes.listType(),
});

const validCondition = defineRule<[]>({
  name: 'isFreezeCondition',
  rank: RANK_FORMAT,
  test: (value) => conditionProblems(value).length === 0,
  describe(value) {
    const [problem] = conditionProblems(value);
    if (!problem) return issueShapes.valueError('Invalid condition');
    const where = problem.path.length > 0 ? `${formatPath(problem.path)}: ` : '';
    return issueShapes.valueError(`${where}${problem.message}`);
  },
});

export const IsConditionList =
  (options?: ValidationOptions): PropertyDecorator =>
  (target, propertyKey) => {
    conditionListShape([], options)(target, propertyKey);
    validCondition([], { ...options, each: true })(target, propertyKey);
  };
