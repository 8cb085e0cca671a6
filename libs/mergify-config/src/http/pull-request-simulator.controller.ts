import { Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import {
  Body,
  Param,
  PullNumberPipe,
  type RepositoryRef,
  RepositoryRefParam,
  RequestValidationException,
} from '@switchyard/http';
import { ConfigurationRejectedError } from '../application/configuration-rejected.error';
import { PullRequestSimulator } from '../application/pull-request-simulator';
import { configurationProblemIssue } from '../json/configuration-problem.issue';
import { type DeprecationInfoJson, deprecationInfoJson } from '../json/deprecation.json';
import { SimulatorBody } from './dto/simulator.body';

/** Spec "Simulator": what the configuration would do on one pull request. */
@ApiTags('Simulator')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/pulls/:number/simulator')
export class PullRequestSimulatorController {
  constructor(private readonly simulator: PullRequestSimulator) {}

  /** 200 {title, summary, deprecations}; 404 for a pull request the code host never reported; 422 for an invalid file. */
  @Post()
  @HttpCode(HttpStatus.OK)
  async simulate(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
    @Body() body: SimulatorBody,
  ): Promise<{ title: string; summary: string; deprecations: DeprecationInfoJson[] }> {
    try {
      const answer = await this.simulator.simulate(repository, number, body.mergify_yml);
      return {
        title: answer.title,
        summary: answer.summary,
        deprecations: answer.deprecations.map(deprecationInfoJson),
      };
    } catch (error) {
      if (error instanceof ConfigurationRejectedError)
        throw new RequestValidationException(
          error.problems.map((p) => configurationProblemIssue(p, ['body', 'mergify_yml'])),
        );
      throw error;
    }
  }
}
