// The one check that a path or payload id is a UUID (any version), before it reaches a query: PostgreSQL would refuse
// a malformed uuid with an error, where a caller should get the resource's 404 or 400.
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);
