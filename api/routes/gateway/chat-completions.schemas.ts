// The OpenAI Chat Completions request the gateway accepts (the schema lives beside its translator in shared/).
export { chatCompletionBody } from '../../../shared/gateway/chat-completions/chat-request.js';
