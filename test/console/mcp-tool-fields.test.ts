// An MCP draft's tool input schema (JSON text), tool annotations (a title and four tri-state hints) and resource MIME
// type, edited in the page and read back through the API: exactly what was typed and chosen, nothing for a hint left
// unset, other annotation keys kept; text that is not a JSON object refused on its row with nothing sent; the API's
// own refusal of a schema nested too deep shown on its row.
import type { Page } from 'playwright-core';
import { createActors, createDraft } from '../support/catalog-factory.js';
import { TEST_PASSWORD } from '../support/identity.js';
import {
  type ConsoleWorld,
  checkPage,
  mcpDraftVersion,
  openConsoleWorld,
  openNewMcpDraft,
  signIn,
} from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

const inputSchema = {
  type: 'object',
  properties: { harbour: { type: 'string', description: 'Harbour name' }, draught: { type: 'number' } },
  required: ['harbour'],
};

/** A draft made through the API whose tool carries an annotation key the form does not name, and an output schema. */
async function draftWithTool() {
  const actors = await createActors(w.h);
  const tool = {
    name: 'berths',
    description: 'Free berths',
    annotations: { title: 'Berths', 'x-harbour-zone': 'north' },
    outputSchema: { type: 'object' },
  };
  const draft = await createDraft(w.h, actors, 'mcp', { name: 'Harbour berths', version: { tools: [tool] } });
  const page = await w.newPage();
  await signIn(page, actors.publisher.email, TEST_PASSWORD, `/publisher/mcp/${draft.id}`);
  const tools = page.getByRole('group', { name: 'Tools' });
  await tools.getByLabel('Tool 1 name').waitFor();
  return { actors, draft, tool, page, tools };
}

/** Counts the page's requests that save the draft from now on. */
function countSaves(page: Page, id: string) {
  const saves = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === `/api/v1/publisher/mcp/${id}/draft`) {
      saves.count++;
    }
  });
  return saves;
}

describe('an MCP draft’s tool', () => {
  it('takes an input schema and two hints, saved exactly so (no unset hint, other annotation keys kept), and shown after a reload', async () => {
    const { actors, draft, tool, page, tools } = await draftWithTool();
    expect(await tools.getByLabel('Tool 1 input schema').inputValue()).toBe('');
    expect(await tools.getByLabel('Tool 1 title').inputValue()).toBe('Berths');
    expect(await tools.getByLabel('Tool 1 read-only hint').locator('option').allTextContents()).toEqual([
      'unset (false)',
      'true',
      'false',
    ]);
    await tools.getByText('Also kept as it came: annotations.x-harbour-zone, outputSchema.').waitFor();

    await tools.getByLabel('Tool 1 input schema').fill(JSON.stringify(inputSchema, null, 2));
    await tools.getByLabel('Tool 1 read-only hint').selectOption('true');
    await tools.getByLabel('Tool 1 destructive hint').selectOption('false');
    await checkPage(page, 'draft-tool-schema');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();

    const [saved] = (await mcpDraftVersion(w, actors.publisher.session, draft.id)).tools ?? [];
    expect(saved).toStrictEqual({
      ...tool,
      inputSchema,
      annotations: { title: 'Berths', 'x-harbour-zone': 'north', readOnlyHint: true, destructiveHint: false },
    });

    await page.reload();
    // Pretty-printed (two spaces), its keys in the order they were typed (`properties` before `required`, `harbour`
    // before `draught`), which jsonb would have reordered.
    expect(await tools.getByLabel('Tool 1 input schema').inputValue()).toBe(JSON.stringify(inputSchema, null, 2));
    expect(await tools.getByLabel('Tool 1 read-only hint').inputValue()).toBe('true');
    expect(await tools.getByLabel('Tool 1 destructive hint').inputValue()).toBe('false');
    expect(await tools.getByLabel('Tool 1 idempotent hint').inputValue()).toBe('');
    expect(await tools.getByLabel('Tool 1 open-world hint').inputValue()).toBe('');
  });

  it('refuses text that is not a JSON object on its row and sends nothing; the API’s refusal of a deep one shows there too', async () => {
    const { actors, draft, tool, page, tools } = await draftWithTool();
    const saves = countSaves(page, draft.id);
    const schemaField = tools.getByLabel('Tool 1 input schema');

    await schemaField.fill('{"type": "object",\n  "properties": {');
    await tools.getByLabel('Tool 1 description').fill('Free berths now');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await tools.getByText(/^Tool 1: inputSchema: Must be JSON: /).waitFor();
    expect(await schemaField.getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'draft-tool-schema-error');

    await schemaField.fill('["harbour"]');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await tools
      .getByText('Tool 1: inputSchema: Must be a JSON object ({ … }), not an array.', { exact: true })
      .waitFor();
    expect(saves.count).toBe(0);
    expect((await mcpDraftVersion(w, actors.publisher.session, draft.id)).tools).toStrictEqual([tool]);

    // An object nested 130 levels deep is JSON the page takes; the API's body parser refuses it (400 Request.TooDeep,
    // naming no field), and the page shows that on the row whose schema is the cause.
    let deep = '{}';
    for (let i = 0; i < 130; i++) deep = `{"a":${deep}}`;
    await schemaField.fill(deep);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await tools
      .getByText('Tool 1: inputSchema: The JSON body is nested deeper than 128 levels of objects and arrays.', {
        exact: true,
      })
      .waitFor();
    expect(await schemaField.getAttribute('aria-invalid')).toBe('true');
    expect(saves.count).toBe(1);
    expect((await mcpDraftVersion(w, actors.publisher.session, draft.id)).tools).toStrictEqual([tool]);
  });
});

describe('an MCP draft’s resource', () => {
  it('takes a MIME type, saved and read back, then changed', async () => {
    const { actors, page } = await openNewMcpDraft(w, {
      slug: 'tide-charts',
      name: 'Tide charts',
      summary: 'Tide charts for any harbour.',
      description: 'Charts from the harbour authority.',
    });
    const resources = page.getByRole('group', { name: 'Resources' });
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    await resources.getByLabel('Resource 1 name').fill('charts');
    await resources.getByLabel('Resource 1 URI').fill('charts://index');
    await resources.getByLabel('Resource 1 MIME type').fill('application/json');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { name: 'Tide charts', level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    const read = async () => (await mcpDraftVersion(w, actors.publisher.session, id)).resources;
    expect(await read()).toStrictEqual([{ name: 'charts', uri: 'charts://index', mimeType: 'application/json' }]);

    await page.reload();
    expect(await resources.getByLabel('Resource 1 MIME type').inputValue()).toBe('application/json');
    await resources.getByLabel('Resource 1 MIME type').fill('text/markdown');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(await read()).toStrictEqual([{ name: 'charts', uri: 'charts://index', mimeType: 'text/markdown' }]);
  });
});
