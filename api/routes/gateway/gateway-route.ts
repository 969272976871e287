// What the gateway's routes declare about their caller: an API key bound to a project, as `Authorization: Bearer`
// or (except the video routes) `x-api-key`. The gateway never counts the account's daily quota.
import { gatewayAuth } from '../../middleware/gateway-auth.js';
import type { Route } from '../route.js';

type GatewayCaller = Pick<Route, 'access' | 'before'>;

export const gatewayCaller: GatewayCaller = {
  access: 'gateway',
  before: (ctx) => gatewayAuth(ctx, { allowXApiKey: true }),
};

/** The video routes take the key as `Authorization: Bearer` only. */
export const bearerGatewayCaller: GatewayCaller = { access: 'gateway', before: (ctx) => gatewayAuth(ctx) };
