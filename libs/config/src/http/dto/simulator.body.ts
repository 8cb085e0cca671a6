import { MaxCodePoints } from '@switchyard/http';
import { IsString } from 'class-validator';

/** Spec "Simulator": the configuration text, at most 1,048,576 characters. */
export const MERGIFY_YML_MAX_CHARACTERS = 1_048_576;

export class SimulatorBody {
  @IsString()
  @MaxCodePoints(MERGIFY_YML_MAX_CHARACTERS)
  mergify_yml!: string;
}
