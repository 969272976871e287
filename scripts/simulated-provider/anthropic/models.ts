// The models the simulator lists in Anthropic's list shape; /v1/messages accepts any model id all the same.

const models = [
  { id: 'simulated-claude-opus', display_name: 'Simulated Claude Opus', created_at: '2025-01-01T00:00:00Z' },
  { id: 'simulated-claude-sonnet', display_name: 'Simulated Claude Sonnet', created_at: '2025-01-01T00:00:00Z' },
  { id: 'simulated-claude-haiku', display_name: 'Simulated Claude Haiku', created_at: '2025-01-01T00:00:00Z' },
].map((m) => ({ type: 'model' as const, ...m }));

export function listModels() {
  return { data: models, has_more: false, first_id: models[0]!.id, last_id: models.at(-1)!.id };
}

export function findModel(id: string) {
  return models.find((m) => m.id === id);
}
