// What leaves the process for a project's request log and video tasks in the organization family (camelCase,
// money as decimal numbers). Upstream task ids and internal storage keys stay inside.
import type { RequestLog } from '../../../shared/gateway/request-log-reads.js';
import type { VideoTask } from '../../../shared/video/video-store.js';
import { microsToNumber } from '../../../shared/wallet/money.js';
import { withoutNulls } from '../../http/json.js';

export const presentProjectRequest = (r: RequestLog) =>
  withoutNulls({
    id: r.id,
    operation: r.operation,
    model: r.model,
    status: r.status,
    httpStatus: r.httpStatus,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    cacheReadTokens: r.cacheReadTokens,
    cacheWriteTokens: r.cacheWriteTokens,
    totalTokens: r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheWriteTokens,
    cost: microsToNumber(r.costMicros),
    latencyMs: r.latencyMs,
    errorMessage: r.errorMessage,
    apiKeyId: r.apiKeyId,
    correlationId: r.correlationId,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  });

export const presentProjectVideo = (t: VideoTask) =>
  withoutNulls({
    id: t.id,
    model: t.model,
    status: t.status,
    progress: t.status === 'completed' ? 100 : t.progress,
    seconds: t.seconds,
    prompt: t.request.prompt,
    price: microsToNumber(t.priceMicros),
    videoUrl: t.status === 'completed' ? t.videoUrl : null,
    error: t.status === 'failed' ? { message: t.errorMessage ?? 'Video generation failed.', type: t.errorType } : null,
    createdAt: t.createdAt,
    finishedAt: t.finishedAt,
  });
