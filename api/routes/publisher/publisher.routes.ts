// Publisher routes (bearer + Publisher role): namespaces, own items, drafts, versions, submit-review and withdraw.
import { type Request, Router } from 'express';
import { addVersion, createDraft, updateDraft } from '../../../shared/catalog/drafts.js';
import { type ItemType, isItemType } from '../../../shared/catalog/item-types.js';
import { createPublisher, listOwnPublishers } from '../../../shared/catalog/publishers.js';
import { submitForReview, withdrawFromReview } from '../../../shared/catalog/review-workflow.js';
import { versionInputSchema } from '../../../shared/catalog/version-payloads.js';
import { getDraftDetail, listOwnItems } from '../../../shared/catalog/workflow-reads.js';
import type { AppContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { body } from '../../http/validate.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { draftBody, draftPatchBody, parseDraftInput, publisherBody, submitBody } from './publisher.schemas.js';
import { presentDraftDetail, presentMutation, presentPublisher, presentWorkflowEntry } from './workflow.presenters.js';

/** The `{type}` of a workflow path; an unknown one is a 404 problem. */
export function itemTypeParam(req: Request): ItemType {
  const { type } = req.params;
  if (!isItemType(type))
    throw notFound('Catalog.TypeNotFound', `"${String(type)}" is not one of mcp, skill, agent, soul.`);
  return type;
}

export const idParam = (req: Request) => String(req.params.id);

export function publisherRoutes(ctx: AppContext): Router {
  const router = Router();
  // Guards sit on each route, so paths this router does not serve pass on without being authenticated here.
  const publisher = [authenticate(ctx), requireRole('Publisher')];
  const account = (res: Parameters<typeof principalOf>[0]) => principalOf(res).accountId;

  router.post('/publishers', ...publisher, async (req, res) => {
    const input = body(req, publisherBody, 'Publisher.Invalid');
    res.json(presentPublisher(await createPublisher(ctx.db, account(res), input)));
  });

  router.get('/publishers', ...publisher, async (_req, res) => {
    res.json((await listOwnPublishers(ctx.db, account(res))).map(presentPublisher));
  });

  router.get('/:type/mine', ...publisher, async (req, res) => {
    res.json((await listOwnItems(ctx.db, itemTypeParam(req), account(res))).map(presentWorkflowEntry));
  });

  router.post('/:type/drafts', ...publisher, async (req, res) => {
    const type = itemTypeParam(req);
    const input = parseDraftInput(req, draftBody(type), 'Draft.Invalid');
    res.json(presentMutation(await createDraft(ctx, type, account(res), input)));
  });

  router.get('/:type/:id', ...publisher, async (req, res) => {
    res.json(presentDraftDetail(await getDraftDetail(ctx.db, itemTypeParam(req), idParam(req), account(res))));
  });

  router.put('/:type/:id/draft', ...publisher, async (req, res) => {
    const type = itemTypeParam(req);
    const patch = parseDraftInput(req, draftPatchBody(type), 'Draft.Invalid');
    res.json(presentMutation(await updateDraft(ctx, type, account(res), idParam(req), patch)));
  });

  router.post('/:type/:id/versions', ...publisher, async (req, res) => {
    const type = itemTypeParam(req);
    const input = body(req, versionInputSchema(type), 'Version.Invalid');
    res.json(presentMutation(await addVersion(ctx, type, account(res), idParam(req), input)));
  });

  router.post('/:type/:id/submit-review', ...publisher, async (req, res) => {
    const type = itemTypeParam(req);
    const { comment } = body(req, submitBody, 'Review.Invalid');
    res.json(presentMutation(await submitForReview(ctx, type, account(res), idParam(req), comment)));
  });

  router.post('/:type/:id/withdraw', ...publisher, async (req, res) => {
    const type = itemTypeParam(req);
    res.json(presentMutation(await withdrawFromReview(ctx, type, account(res), idParam(req))));
  });

  return router;
}
