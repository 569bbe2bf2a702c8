import { readStrict } from '../xml/strict';
import { buildRequestsWith, type BuildInput, type BuildResult } from './build';
import type { XmlBodyReader } from './checks';

/** An expanded XML body read by the one strict reading the product uses, without its nesting limit. */
export const readXmlBody: XmlBodyReader = (body) =>
	readStrict(body, { maxDepth: Number.MAX_SAFE_INTEGER });

/** Builds the request(s) a service's caller sends for these settings and values. */
export function buildRequests(input: BuildInput): BuildResult {
	return buildRequestsWith(input, readXmlBody);
}
