import type { LocatedDeprecation } from '../domain/validate-configuration';

/** Spec DeprecationInfo. */
export interface DeprecationInfoJson {
  message: string;
  deadline: string;
  path_to_field: string[] | null;
}

export const deprecationInfoJson = (deprecation: LocatedDeprecation): DeprecationInfoJson => ({
  message: deprecation.message,
  deadline: deprecation.deadline,
  path_to_field: deprecation.path ? deprecation.path.map(String) : null,
});
