/**
 * Answers the client validates that shared/api does not model, because only the client needs
 * them. Each follows docs/protocol.md and is lenient where a real deployment may differ.
 */
import { z } from 'zod';
import { Checksum, Sequence, Success, Workspace } from '../../shared/api/index.js';

/** `GET /workspaces`: the reference's Workspace, or its getting-started example's list; as a list. */
export const WorkspaceAnswer = z.union([
  Workspace.transform((workspace) => [workspace]),
  z.looseObject({ workspaces: z.array(Workspace) }).transform((answer) => answer.workspaces),
]);

/** `DELETE /workspaces/assets`. */
export const DeleteAssetsResult = Success.extend({ deleted: z.array(z.string()).default([]) });
export type DeleteAssetsResult = z.infer<typeof DeleteAssetsResult>;

/**
 * A signed PUT's answer. Our blob origin sends `{ key, size, checksum }`; object stores often
 * send an empty body with only an ETag, so every field is optional.
 */
export const SignedUploadAnswer = z.looseObject({
  key: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  checksum: Checksum.optional(),
});
export type SignedUploadAnswer = z.infer<typeof SignedUploadAnswer>;

/** `GET …/history/review`. */
export const ReviewHistoryEntry = z.looseObject({
  id: z.string(),
  asset_id: z.string(),
  review_id: z.string().nullish(),
  user_id: z.string(),
  status: z.string().nullish(),
  asset_version_id: z.string().nullish(),
  created_at: z.string(),
  action: z.string(),
  sequence: Sequence.optional(),
});
export type ReviewHistoryEntry = z.infer<typeof ReviewHistoryEntry>;
