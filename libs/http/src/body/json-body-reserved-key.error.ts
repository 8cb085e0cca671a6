/** A JSON body with an own `constructor` key in some object: refused with 400, like `__proto__`. */
export class JsonBodyReservedKeyError extends Error {
  constructor() {
    super('JSON body uses the reserved key "constructor"');
    this.name = 'JsonBodyReservedKeyError';
  }
}
