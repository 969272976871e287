// Public surface of the outbound HTTP client (see docs/outbound-http.md).
export { createAddressPolicy, parseOutboundUrl } from './address-policy.js';
export { type ClientPurpose, operatorUrlClient, userUrlClient } from './clients-by-trust.js';
export type { HostResolver, ResolvedAddress } from './guarded-lookup.js';
export {
  createOutboundClient,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundHeaders,
  type OutboundRequestInit,
  type OutboundResponse,
} from './outbound-client.js';
export {
  isOutboundRequestError,
  type OutboundErrorReason,
  OutboundRequestError,
  outboundErrorReasons,
} from './outbound-error.js';
