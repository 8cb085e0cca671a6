import { Controller, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import type { Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { Body, type RepositoryRef, RepositoryRefParam, RequestValidationException } from '@switchyard/http';
import { ConfigurationRejectedError } from '../application/configuration-rejected.error';
import { checkConfiguration, simulateRepository } from '../application/configuration-simulator';
import { configurationProblemIssue } from '../json/configuration-problem.issue';
import { type DeprecationInfoJson, deprecationInfoJson } from '../json/deprecation.json';
import { SimulatorBody } from './dto/simulator.body';

const MERGIFY_YML_LOC = ['body', 'mergify_yml'];

/** Spec "Simulator": check a configuration text before committing it. */
@ApiTags('Simulator')
@Auth('STD')
@Controller('v1/repos/:owner/:repository')
export class SimulatorController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** 200 {message, deprecations}; 422 with one issue per problem, each naming its path and line. */
  @Post('configuration-simulator')
  @HttpCode(HttpStatus.OK)
  configuration(
    @RepositoryRefParam() _repository: RepositoryRef,
    @Body() body: SimulatorBody,
  ): { message: string; deprecations: DeprecationInfoJson[] } {
    const check = rejectingInvalid(() => checkConfiguration(body.mergify_yml, this.clock.now()));
    return { message: check.message, deprecations: check.deprecations.map(deprecationInfoJson) };
  }

  /** 200 {title, summary, deprecations}: the summary explains what the configuration will do. */
  @Post('simulator')
  @HttpCode(HttpStatus.OK)
  repository(
    @RepositoryRefParam() _repository: RepositoryRef,
    @Body() body: SimulatorBody,
  ): { title: string; summary: string; deprecations: DeprecationInfoJson[] } {
    const simulation = rejectingInvalid(() => simulateRepository(body.mergify_yml, this.clock.now()));
    return {
      title: simulation.title,
      summary: simulation.summary,
      deprecations: simulation.deprecations.map(deprecationInfoJson),
    };
  }
}

function rejectingInvalid<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ConfigurationRejectedError)
      throw new RequestValidationException(
        error.problems.map((p) => configurationProblemIssue(p, MERGIFY_YML_LOC)),
      );
    throw error;
  }
}
