import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '../principal';
import { Auth } from './auth.decorator';
import { ApplicationResponse } from './application.response';
import { CurrentPrincipal } from './current-principal.decorator';

@ApiTags('Application')
@Controller('v1/application')
export class ApplicationController {
  @Get()
  @Auth('APP')
  @ApiOperation({ summary: 'Get the application the calling key belongs to' })
  @ApiOkResponse({ type: ApplicationResponse })
  current(@CurrentPrincipal() principal: Principal): ApplicationResponse {
    // APP admits application keys only, and the resolver gives every key its application.
    const application = principal.application!;
    return {
      id: application.id,
      name: application.name,
      scope: application.scope,
      account_scope: { id: application.account.id, login: application.account.login },
    };
  }
}
