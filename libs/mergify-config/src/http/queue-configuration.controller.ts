import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import type { Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { RepositoryRefParam, RequestValidationException, type RepositoryRef } from '@switchyard/http';
import { ConfigurationRejectedError } from '../application/configuration-rejected.error';
import { queueRulesInForce } from '../application/queue-configuration';
import {
  REPOSITORY_CONFIGURATION_SOURCE,
  type RepositoryConfigurationSource,
} from '../application/repository-configuration-source';
import { configurationProblemIssue } from '../json/configuration-problem.issue';
import { type QueueRuleJson, queueRuleJson } from '../json/queue-rule.json';

/** Spec "Legacy queues" (deprecated): the queue rules of the default branch's configuration. */
@ApiTags('Legacy queues')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/queues/configuration')
export class QueueConfigurationController {
  constructor(
    @Inject(REPOSITORY_CONFIGURATION_SOURCE) private readonly source: RepositoryConfigurationSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 200 {configuration: QueueRule[]} in processing order; 422 with every problem when the file is invalid. */
  @Get()
  async get(@RepositoryRefParam() repository: RepositoryRef): Promise<{ configuration: QueueRuleJson[] }> {
    try {
      const { rules } = await queueRulesInForce(
        this.source,
        repository.owner,
        repository.repository,
        this.clock.now(),
      );
      return { configuration: rules.map((rule, index) => queueRuleJson(rule, index, rules.length)) };
    } catch (error) {
      if (error instanceof ConfigurationRejectedError)
        throw new RequestValidationException(
          error.problems.map((problem) =>
            configurationProblemIssue(problem, ['configuration', error.file ?? '']),
          ),
        );
      throw error;
    }
  }
}
