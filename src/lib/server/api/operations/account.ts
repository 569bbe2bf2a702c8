import type { OperationSpec } from '../contract';

/** Session, account, API tokens, users and the audit log. */
export const accountOperations: OperationSpec[] = [];
