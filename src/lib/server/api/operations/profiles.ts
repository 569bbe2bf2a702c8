import type { OperationSpec } from '../contract';

/** Profiles, their revisions, import and export, backups and the preview. */
export const profileOperations: OperationSpec[] = [];
