import { IsStorableString } from '@switchyard/http';
import { IsString } from 'class-validator';

/** `POST /ui/session`: the application key or token the page signs in with, sent once. */
export class SignInBody {
  @IsString()
  @IsStorableString(4096)
  credential!: string;
}
