/**
 * The processors that perform a repository's merges (the merge-queue engine's effects, in the
 * partition that owns the repository). A pause is acknowledged only once they have read past it:
 * each performs its merges one reaction at a time and moves its checkpoint only after a reaction's
 * merge is done and recorded, and every merge started after the pause is stored sees it (the merge
 * gate reads the pause stream right before the code-host call). So once they have passed the pause,
 * no merge is in flight that could still land, and none will start until the unpause.
 */
export interface MergeFence {
  processorsFor(repository: string): readonly string[];
}

/** Nest token of the deployment's MergeFence (RepositoryControlsModule.forRoot). */
export const MERGE_FENCE = Symbol('MERGE_FENCE');
