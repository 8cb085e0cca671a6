import { SetMetadata } from '@nestjs/common';

/**
 * Marks a route (or controller) as reachable without credentials: health checks, the OpenAPI
 * document. The auth guard (libs/auth) refuses every route that is neither public nor declares its
 * accepted schemes, so forgetting both fails closed. Defined here so libs/http needs no auth code.
 */
export const PUBLIC_ROUTE = 'switchyard:public-route';

export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
