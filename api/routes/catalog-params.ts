// The path parameters the catalog's areas share (publisher, moderation, skill packages): the item `{type}` and an
// item `{id}`, each refused with the catalog's own 404.
import type { Request } from 'express';
import { z } from 'zod';
import { catalogErrors } from '../../shared/catalog/catalog-errors.js';
import { type ItemType, itemTypes } from '../../shared/catalog/item-types.js';
import { notFound } from '../../shared/errors/app-error.js';
import { checkedParam, uuidParam } from '../http/path-params.js';

/** `{type}`: one of mcp, skill, agent, soul; another is a 404 problem. */
export const itemTypeParam = checkedParam(z.enum(itemTypes), {
  notFound: (req) =>
    notFound('Catalog.TypeNotFound', `"${String(req.params.type)}" is not one of mcp, skill, agent, soul.`),
});

/** The `{type}` of a route that declared `itemTypeParam`. */
export const itemTypeOf = (req: Request) => req.params.type as ItemType;

/** `{id}` of an item of the route's `{type}`: a malformed id is that type's 404. */
export const itemIdParam = uuidParam({ notFound: (req) => catalogErrors.itemNotFound(itemTypeOf(req)) });
