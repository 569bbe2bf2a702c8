import type { Interpretation } from '$lib/core/response';
import type { PreviewRequest } from '../profiles/preview';
import type { ResponseEnvelope } from './envelope';

/** One request's outcome: a response and its interpretation, or why there is none. */
export type CallResult =
	| { request: PreviewRequest; response: ResponseEnvelope; interpretation: Interpretation }
	| {
			request: PreviewRequest;
			error: { code: string; message: string; rule?: string; address?: string };
	  };
