/**
 * The configuration fields libs/http reads. The platform's SwitchyardConfig has them under these
 * names, so the lead passes the config object as it is.
 */
export interface HttpSettings {
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: `auto` writes lines for a person when stdout is a terminal, JSON lines otherwise. */
  logFormat: 'auto' | 'pretty' | 'json';
  /** SWITCHYARD_TRUST_PROXY: honour X-Forwarded-Proto / X-Forwarded-Host (and -For) from a proxy. */
  trustProxy: boolean;
}
