// Carries the correlation id of the current request or job through async calls, into logs and enqueued jobs.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

type CorrelationScope = { correlationId: string };

const storage = new AsyncLocalStorage<CorrelationScope>();

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const isValidCorrelationId = (value: unknown): value is string =>
  typeof value === 'string' && VALID_ID.test(value);

export const newCorrelationId = (): string => randomUUID();

export const currentCorrelationId = (): string | undefined => storage.getStore()?.correlationId;

export function withCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run({ correlationId }, fn);
}
