// The OpenAI Responses request the gateway accepts (the schema lives beside its translator in shared/).
export { responsesBody } from '../../../shared/gateway/responses/response-request.js';
