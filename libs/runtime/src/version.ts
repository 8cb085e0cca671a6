/** Reported in the OpenAPI document; kept in step with package.json by the release process. */
export const SWITCHYARD_VERSION = '0.1.0';
