/**
 * The origin (`http://host:port`) the service listens on, learned only after it listens (tests
 * listen on port 0). Processors start before that, so they read it when they first need it.
 */
export class ServiceOrigin {
  private origin: string | null = null;

  set(origin: string): void {
    this.origin = origin.replace(/\/+$/, '');
  }

  get(): string | null {
    return this.origin;
  }
}
