import { z } from 'zod';
import { routeFamilyOf } from '../../api/http/route-family.js';
import { toAppError } from '../../api/middleware/errors.js';
import { AppError } from '../../shared/errors/app-error.js';

describe('route families', () => {
  it.each([
    ['/health', 'catalog'],
    ['/api/v1/mcp', 'catalog'],
    ['/v1/messages', 'messages'],
    ['/v1/messages/count_tokens', 'messages'],
    ['/v1/videos/video_1', 'gateway'],
    ['/v1/messagesX', 'gateway'],
    ['/api/organization/members', 'organization'],
    ['/api/organizations', 'organization'],
    ['/api/projects/1/quota', 'organization'],
    ['/api/project-templates', 'organization'],
    ['/api/projectsx', 'catalog'],
    ['/v0.1/servers', 'mcpRegistry'],
    ['/v0.1/publish', 'mcpRegistry'],
    ['/v0.10/servers', 'catalog'],
  ])('%s belongs to %s', (path, family) => {
    expect(routeFamilyOf(path)).toBe(family);
  });
});

describe('error mapping', () => {
  it('keeps an AppError as it is', () => {
    const err = new AppError('Mcp.NotFound', 404, 'no such item');
    expect(toAppError(err)).toBe(err);
  });
  it('turns a zod error into a 400 naming the field', () => {
    const parsed = z.object({ name: z.string() }).safeParse({ name: 1 });
    const err = toAppError(parsed.error);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^name:/);
  });
  it('turns body parser failures into 4xx', () => {
    expect(toAppError(Object.assign(new Error('x'), { type: 'entity.parse.failed' })).status).toBe(400);
    expect(toAppError(Object.assign(new Error('x'), { type: 'entity.too.large' })).status).toBe(413);
  });
  it('turns lost backing services into 503', () => {
    expect(toAppError(new Error("Stream isn't writeable and enableOfflineQueue options is false")).status).toBe(503);
    expect(toAppError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).status).toBe(503);
    expect(toAppError(new Error('Connection terminated unexpectedly')).status).toBe(503);
  });
  it('turns a lost PostgreSQL behind a drizzle query error into 503', () => {
    const shutdown = Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
    const wrapped = new Error('Failed query: select 1\nparams: ', { cause: shutdown });
    expect(toAppError(wrapped).status).toBe(503);
    expect(toAppError(new Error('Failed query: select 1', { cause: new Error('syntax error') })).status).toBe(500);
  });
  it('turns anything else into a 500 without leaking its message', () => {
    const err = toAppError(new Error('secret internals'));
    expect(err.status).toBe(500);
    expect(err.message).not.toContain('secret');
  });
});
