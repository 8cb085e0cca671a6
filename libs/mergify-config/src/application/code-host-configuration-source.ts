import { type CodeHost, isCodeHostError } from '@switchyard/code-host';
import type {
  RepositoryConfigurationFile,
  RepositoryConfigurationSource,
} from './repository-configuration-source';

/** The configuration file on the default branch, as the code host serves it. */
export class CodeHostConfigurationSource implements RepositoryConfigurationSource {
  constructor(private readonly codeHost: CodeHost) {}

  async read(owner: string, repository: string): Promise<RepositoryConfigurationFile | null> {
    try {
      const file = await this.codeHost.getConfiguration({ owner, name: repository });
      return file ? { path: file.path, content: file.content } : null;
    } catch (error) {
      // An unknown repository is the caller's 404, not an empty configuration.
      if (isCodeHostError(error, 'not-found')) return null;
      throw error;
    }
  }
}
