import {
  // eslint-disable-next-line no-restricted-imports -- the unvalidated decorators this spec must catch
  Body as NestBody,
  Controller,
  Get,
  // eslint-disable-next-line no-restricted-imports -- as above
  Param as NestParam,
  ParseIntPipe,
  Post,
  // eslint-disable-next-line no-restricted-imports -- as above
  Query as NestQuery,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { RepositoryRefParam } from '../params/repository-ref.decorator';
import type { RepositoryRef } from '../params/repository-ref';
import {
  assertRequestParametersValidated,
  unvalidatedRequestParameters,
} from './assert-request-parameters-validated';
import { Body, Param, Query, REQUEST_VALIDATION } from './validated-params';

class NoteBody {
  note?: string;
}

@Controller('checked')
class CheckedController {
  @Post(':id')
  write(@Param('id', ParseIntPipe) id: number, @Body() body: NoteBody, @Query('dry') dry: boolean) {
    return { id, body, dry };
  }

  @Get()
  read(@RepositoryRefParam() repository: RepositoryRef, @Body('note') note: string) {
    return { repository, note };
  }
}

@Controller('unchecked')
class UncheckedController {
  @Post(':id')
  write(@NestParam('id') id: string, @NestBody() body: NoteBody) {
    return { id, body };
  }

  @Get()
  read(@NestQuery() query: Record<string, string>) {
    return query;
  }
}

class InheritedController extends UncheckedController {}

const pipesOf = (controller: object, method: string) =>
  Object.values(
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as Record<
      string,
      { index: number; pipes: unknown[] }
    >,
  )
    .sort((a, b) => a.index - b.index)
    .map((argument) => argument.pipes);

describe('validated Body, Query and Param', () => {
  it('run request validation first, then the parameter’s own pipes, as a global pipe did', () => {
    expect(pipesOf(CheckedController, 'write')).toEqual([
      [REQUEST_VALIDATION, ParseIntPipe],
      [REQUEST_VALIDATION],
      [REQUEST_VALIDATION],
    ]);
  });

  it('leave custom parameters (the repository, the principal) out of the pipe chain', () => {
    const [repository] = pipesOf(CheckedController, 'read');
    expect(repository).toEqual([]);
  });
});

describe('unvalidatedRequestParameters', () => {
  it('names every body, query and path parameter taken with Nest’s own decorators, inherited ones too', () => {
    expect(unvalidatedRequestParameters([CheckedController])).toEqual([]);
    expect(unvalidatedRequestParameters([UncheckedController]).sort()).toEqual([
      'UncheckedController.read: query parameter 0',
      'UncheckedController.write: body parameter 1',
      'UncheckedController.write: path parameter 0',
    ]);
    expect(unvalidatedRequestParameters([InheritedController])).toHaveLength(3);
  });

  it('keeps an app with such a parameter from starting', async () => {
    const build = async (controller: new () => object) => {
      const moduleRef = await Test.createTestingModule({ controllers: [controller] }).compile();
      return moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
    };
    const checked = await build(CheckedController);
    expect(() => assertRequestParametersValidated(checked)).not.toThrow();
    const unchecked = await build(UncheckedController);
    expect(() => assertRequestParametersValidated(unchecked)).toThrow(
      /UncheckedController\.write: body parameter 1/,
    );
    await Promise.all([checked.close(), unchecked.close()]);
  });
});
