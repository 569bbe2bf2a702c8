/**
 * The outbound module: the only code of the app that opens network connections (a lint rule
 * keeps it so). Every test call goes through {@link sendOutbound}.
 */
export {
	sendOutbound,
	type OutboundRequest,
	type OutboundResponse,
	type Timings,
	type HeaderField
} from './send';
export { OutboundError, type OutboundErrorCode } from './errors';
export { readOutboundConfig, InFlight, type OutboundConfig } from './config';
export { checkAddress, checkTarget, parsePolicy, type OutboundPolicy, type Denial } from './policy';
