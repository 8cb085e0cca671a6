/**
 * The configuration fields libs/http reads. The platform's SwitchyardConfig has them under these
 * names, so the lead passes the config object as it is.
 */
export interface HttpSettings {
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** SWITCHYARD_TRUST_PROXY: honour X-Forwarded-Proto / X-Forwarded-Host (and -For) from a proxy. */
  trustProxy: boolean;
}
