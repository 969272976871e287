// The console's MCP draft rows (console/src/pages/publisher/mcp-entries.ts): a tool's input schema as JSON text and
// its annotations as fields, a resource's MIME type, what the page refuses before sending, and where the API's refusal
// of a whole body (nested too deep) is shown.
import { bodyLimitErrors } from '../../console/src/pages/publisher/body-limit-rows.js';
import { jsonObjectOf } from '../../console/src/pages/publisher/json-object-text.js';
import {
  type Entry,
  type EntryKind,
  entriesOf,
  entryBody,
  entryKinds,
  entryTextErrors,
  keptFieldsOf,
} from '../../console/src/pages/publisher/mcp-entries.js';
import { MAX_JSON_DEPTH } from '../../shared/validation/json-shape.js';

const kindOf = (list: string) => entryKinds.find((k) => k.list === list) as EntryKind & { list: 'tools' };
const tools = kindOf('tools');
const resources = kindOf('resources');
const inputSchema = { type: 'object', properties: { harbour: { type: 'string' } }, required: ['harbour'] };
const nested = (levels: number): unknown => (levels === 0 ? {} : { a: nested(levels - 1) });
const noRows = { tools: [], resources: [], prompts: [], configFields: [] };

describe('a tool row', () => {
  it('shows the input schema pretty-printed and the annotations in fields, keeping what else they hold', () => {
    const [row] = entriesOf(tools, [
      {
        name: 'berths',
        inputSchema,
        annotations: { title: 'Berths', readOnlyHint: true, audience: ['user'] },
        outputSchema: { type: 'object' },
      },
    ]) as [Entry];
    expect(row.values).toEqual({
      name: 'berths',
      description: '',
      'annotations.title': 'Berths',
      'annotations.readOnlyHint': 'true',
      'annotations.destructiveHint': '',
      'annotations.idempotentHint': '',
      'annotations.openWorldHint': '',
      inputSchema: JSON.stringify(inputSchema, null, 2),
    });
    expect(row.kept).toEqual({ annotations: { audience: ['user'] }, outputSchema: { type: 'object' } });
    expect(keptFieldsOf(tools, row)).toEqual(['annotations.audience', 'outputSchema']);
    expect(entryBody(tools, row)).toStrictEqual({
      name: 'berths',
      inputSchema,
      annotations: { title: 'Berths', readOnlyHint: true, audience: ['user'] },
      outputSchema: { type: 'object' },
    });
  });

  it('sends a hint chosen true or false, nothing for an unset one, and no annotations when none is set', () => {
    const [row] = entriesOf(tools, [{ name: 'tide' }]) as [Entry];
    expect(entryBody(tools, row)).toStrictEqual({ name: 'tide' });
    const values = { ...row.values, 'annotations.destructiveHint': 'false', 'annotations.openWorldHint': 'true' };
    expect(entryBody(tools, { ...row, values })).toStrictEqual({
      name: 'tide',
      annotations: { destructiveHint: false, openWorldHint: true },
    });
  });

  it('keeps as it came a hint that is not a boolean, unless one is chosen', () => {
    const [row] = entriesOf(tools, [{ name: 'tide', annotations: { readOnlyHint: 'yes' } }]) as [Entry];
    expect(row.values['annotations.readOnlyHint']).toBe('');
    expect(entryBody(tools, row)).toStrictEqual({ name: 'tide', annotations: { readOnlyHint: 'yes' } });
    const values = { ...row.values, 'annotations.readOnlyHint': 'false' };
    expect(entryBody(tools, { ...row, values })).toStrictEqual({ name: 'tide', annotations: { readOnlyHint: false } });
  });

  it('refuses input schema text that is not JSON or not an object, on its row, and sends none of it', () => {
    const rows = entriesOf(tools, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    const texts = ['{"type": "object",', '["harbour"]', '  '];
    const typed = rows.map((row, i) => ({ ...row, values: { ...row.values, inputSchema: texts[i] ?? '' } }));
    const errors = entryTextErrors('tools', tools, typed);
    expect(Object.keys(errors)).toEqual([`tools#${typed[0]!.id}#inputSchema`, `tools#${typed[1]!.id}#inputSchema`]);
    expect(errors[`tools#${typed[0]!.id}#inputSchema`]).toMatch(/^Must be JSON: /);
    expect(errors[`tools#${typed[1]!.id}#inputSchema`]).toBe('Must be a JSON object ({ … }), not an array.');
    expect(typed.map((row) => entryBody(tools, row))).toStrictEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(jsonObjectOf('null').error).toBe('Must be a JSON object ({ … }), not null.');
    expect(jsonObjectOf('"x"').error).toBe('Must be a JSON object ({ … }), not a string.');
  });
});

describe('a resource row', () => {
  it('shows and sends its MIME type', () => {
    const [row] = entriesOf(resources, [{ name: 'charts', mimeType: 'application/json' }]) as [Entry];
    expect(row.values.mimeType).toBe('application/json');
    expect(row.kept).toEqual({});
    const values = { ...row.values, mimeType: ' text/markdown ' };
    expect(entryBody(resources, { ...row, values })).toStrictEqual({ name: 'charts', mimeType: 'text/markdown' });
  });
});

describe('the API’s refusal of a whole body', () => {
  const withSchemas = (...schemas: unknown[]) => {
    const rows = entriesOf(
      tools,
      schemas.map((schema, i) => ({ name: `t${i}`, inputSchema: schema })),
    );
    return { ...noRows, tools: rows };
  };
  const deep = 'The JSON body is nested deeper than 128 levels of objects and arrays.';

  it('is shown on the row whose schema is nested too deep where a draft’s update holds it', () => {
    // The schema sits 4 levels down (the body, version, tools, the tool): 124 levels of its own are the most.
    const lists = withSchemas(inputSchema, nested(MAX_JSON_DEPTH - 4));
    const id = lists.tools[1]!.id;
    expect(bodyLimitErrors('Request.TooDeep', deep, lists, 10_000)).toEqual({ [`tools#${id}#inputSchema`]: deep });
    expect(bodyLimitErrors('Request.TooDeep', deep, withSchemas(nested(MAX_JSON_DEPTH - 5)), 10_000)).toEqual({});
  });

  it('is shown on the row of the longest schema when the body is too large and it is most of the body', () => {
    const lists = withSchemas(inputSchema, { description: 'x'.repeat(1000) });
    const id = lists.tools[1]!.id;
    expect(bodyLimitErrors('Request.TooLarge', 'too large', lists, 1500)).toEqual({
      [`tools#${id}#inputSchema`]: 'too large',
    });
    expect(bodyLimitErrors('Request.TooLarge', 'too large', lists, 5000)).toEqual({});
    expect(bodyLimitErrors('Catalog.NotFound', 'no', lists, 1500)).toEqual({});
  });
});
