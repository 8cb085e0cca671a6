import { Controller, Get, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, type Principal } from '@switchyard/auth';
import { Body, type RepositoryRef, RepositoryRefParam, ReadYourWrites } from '@switchyard/http';
import { ConfigureAutoQuarantineCommand } from '../application/configure-auto-quarantine.handler';
import { TestQuarantineQueries } from '../application/test-quarantine.queries';
import type { AutoQuarantineView } from '../projection/test-quarantine.read-model';
import { AutoQuarantineBody } from './dto/auto-quarantine.body';

interface AutoQuarantineJson {
  enabled: boolean;
  ignore_broken_on_default_branch: boolean;
}

const json = (view: AutoQuarantineView): AutoQuarantineJson => ({
  enabled: view.enabled,
  ignore_broken_on_default_branch: view.ignoreBrokenOnDefaultBranch,
});

/**
 * Auto-quarantine per repository: a route of Switchyard's own (Mergify switches it in its
 * dashboard). Configuring it needs what managing the queue needs (STD), not a CI key.
 */
@ApiTags('Test quarantines')
@Auth('STD')
@Controller('v1/ci/:owner/repositories/:repository/auto-quarantine')
export class AutoQuarantineController {
  constructor(
    private readonly commands: CommandBus,
    private readonly quarantines: TestQuarantineQueries,
  ) {}

  @Get()
  async get(@RepositoryRefParam() repository: RepositoryRef): Promise<AutoQuarantineJson> {
    return json(await this.quarantines.autoQuarantine(repository.key));
  }

  @ReadYourWrites()
  @Put()
  @ApiOperation({
    description:
      'Switches auto-quarantine on or off. When on, tests that turn flaky on the default branch are ' +
      'quarantined automatically (and broken ones too with ignore_broken_on_default_branch); such ' +
      'quarantines are lifted once the test is healthy again. Logs ci_insights.auto_quarantine.*.',
  })
  async put(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: AutoQuarantineBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AutoQuarantineJson> {
    const settings = {
      enabled: body.enabled,
      ignoreBrokenOnDefaultBranch: body.ignore_broken_on_default_branch ?? false,
    };
    return json(
      await this.commands.execute(
        new ConfigureAutoQuarantineCommand(repository.key, settings, principal.actor),
      ),
    );
  }
}
