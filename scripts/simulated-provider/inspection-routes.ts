// Test-only inspection of the simulator itself: GET/DELETE /_simulator/requests, GET /_simulator/stats, GET /health.
import { Router } from 'express';
import type { SimulatorState } from './simulator-state.js';

export function inspectionRouter(state: SimulatorState): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/_simulator/requests', (req, res) => {
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    res.json({ data: state.requests.filter((r) => r.path.startsWith(path)) });
  });
  router.delete('/_simulator/requests', (_req, res) => {
    state.clear();
    res.status(204).end();
  });
  router.get('/_simulator/stats', (_req, res) => {
    res.json(state.counters);
  });
  return router;
}
