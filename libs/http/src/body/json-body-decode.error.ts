/**
 * A request body that claimed to be JSON and was not. Deliberately not a FastifyError (no
 * statusCode): Nest would turn that into a plain HttpException and lose the position, which
 * FastAPI reports as `loc: ["body", <offset>]`.
 */
export class JsonBodyDecodeError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`JSON decode error at ${position}: ${reason}`);
    this.name = 'JsonBodyDecodeError';
  }
}
