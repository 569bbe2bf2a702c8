import { complete, type Operation } from '../contract';
import { accountOperations } from './account';
import { callOperations } from './calls';
import { healthOperations } from './health';
import { profileOperations } from './profiles';

/**
 * Every operation of the HTTP API, by area. A test holds this list equal to the endpoints under
 * `src/routes/api` (and the addresses served before the kit), method by method.
 */
export const OPERATIONS: readonly Operation[] = [
	...accountOperations,
	...profileOperations,
	...callOperations,
	...healthOperations
].map(complete);
