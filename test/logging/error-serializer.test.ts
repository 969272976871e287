// The logged form of an error keeps its SQL but never the values a failed query was run with.
import { serializeError } from '../../shared/logging/error-serializer.js';

const failedQuery = () => {
  const err = new Error(
    'Failed query: update "t" set "h" = $1 where "id" = $2\nparams: {"Authorization":"Bearer s3cret"},42',
  );
  Object.assign(err, { params: [{ Authorization: 'Bearer s3cret' }, 42] });
  return err;
};

it('drops the params of a failed query from its message, stack and fields, and keeps the SQL', () => {
  const logged = JSON.stringify(serializeError(failedQuery()));
  expect(logged).not.toContain('s3cret');
  expect(logged).toContain('Failed query: update \\"t\\" set \\"h\\" = $1');
  expect(logged).toContain('params: [redacted]');
});

it('scrubs a wrapped cause and an error given as text, and leaves other values alone', () => {
  const wrapper = new Error('saving the settings failed', { cause: failedQuery() });
  expect(JSON.stringify(serializeError(wrapper))).not.toContain('s3cret');
  expect(serializeError('Failed query: select $1\nparams: s3cret')).toBe('Failed query: select $1\nparams: [redacted]');
  expect(serializeError({ code: 'E1' })).toEqual({ code: 'E1' });
});
