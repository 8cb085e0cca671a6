import type { FastifyRequest } from 'fastify';
import type { Principal } from '../principal';

/** The request once the guard has let it through. */
export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };
