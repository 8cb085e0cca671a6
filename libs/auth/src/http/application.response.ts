import { ApiProperty } from '@nestjs/swagger';

export class AccountScopeResponse {
  @ApiProperty({ example: 123456 })
  id!: number;

  @ApiProperty({ example: 'Mergifyio' })
  login!: string;
}

/** GET /v1/application (spec "Application"). */
export class ApplicationResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'an application name' })
  name!: string;

  @ApiProperty({ enum: ['admin', 'ci'] })
  scope!: 'admin' | 'ci';

  @ApiProperty({ type: AccountScopeResponse })
  account_scope!: AccountScopeResponse;
}
