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
  it.each([
    ['3D000', 'database "ockhub" does not exist'],
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['57P04', 'database dropped'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect'],
    ['08003', 'connection does not exist'],
    ['08P01', 'protocol violation'],
    ['53300', 'sorry, too many clients already'],
  ])('turns PostgreSQL %s (%s) into 503, also behind a drizzle query error', (code, message) => {
    const cause = Object.assign(new Error(message), { code });
    expect(toAppError(cause).status).toBe(503);
    expect(toAppError(new Error('Failed query: select 1\nparams: ', { cause })).code).toBe('Service.Unavailable');
  });
  it.each([
    ['42P01', 'relation "skills" does not exist'],
    ['23505', 'duplicate key value'],
    ['80800', 'a code that only ends like a connection class'],
  ])('keeps PostgreSQL %s (%s) a 500', (code, message) => {
    expect(toAppError(Object.assign(new Error(message), { code })).status).toBe(500);
  });
  it('turns anything else into a 500 without leaking its message', () => {
    const err = toAppError(new Error('secret internals'));
    expect(err.status).toBe(500);
    expect(err.message).not.toContain('secret');
  });
});
