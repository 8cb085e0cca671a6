/** The spec's named bearer schemes; `@Auth(...)` in libs/auth references them per operation. */
export const SECURITY_SCHEMES = {
  AdminApplicationKey: 'An application key with scope admin (`sy_admin_…`).',
  CIApplicationKey: 'An application key with scope ci (`sy_ci_…`).',
  ServiceTokenBearerAuth: 'A token issued by this service (`syt_…`).',
  HostTokenBearerAuth: 'A token issued by the code-hosting platform (e.g. a GitHub token).',
} as const;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;
