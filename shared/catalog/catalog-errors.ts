// The catalog's stable error codes, built once so handlers and services throw the same titles.
import { type AppError, badRequest, conflict, notFound } from '../errors/app-error.js';
import { type ItemType, typeCode } from './item-types.js';

export const catalogErrors = {
  itemNotFound: (type: ItemType, what = 'No such item') => notFound(`${typeCode[type]}.NotFound`, `${what}.`),
  notEditable: (type: ItemType, status: string) =>
    badRequest(
      `${typeCode[type]}.NotEditable`,
      `The ${type} is ${status}; it can be edited only in draft, changes_requested or rejected.`,
    ),
  notInReview: (type: ItemType, status: string) =>
    conflict(`${typeCode[type]}.NotInReview`, `The ${type} is ${status}, not in_review.`),
  alreadyInReview: (type: ItemType) =>
    conflict(`${typeCode[type]}.AlreadyInReview`, `The ${type} is already in review; withdraw it first to edit.`),
  notPublished: (type: ItemType) =>
    conflict(`${typeCode[type]}.NotPublished`, `The ${type} is not in the public catalog.`),
  nothingToSubmit: (type: ItemType) =>
    conflict(`${typeCode[type]}.NothingToSubmit`, `The ${type} has no unpublished version; add a version first.`),
  slugExists: (type: ItemType, slug: string) =>
    conflict(`${typeCode[type]}.SlugExists`, `A ${type} with the slug "${slug}" already exists.`),
  versionInvalid: (message: string) => badRequest('Version.Invalid', message),
  versionExists: (message: string) => conflict('Version.Exists', message),
  versionNotFound: (version: string) => notFound('Version.NotFound', `No published version "${version}".`),
  publisherNotFound: (slug: string) =>
    notFound(
      'Publisher.NotFound',
      `No publisher "${slug}" owned by this account: GET /api/v1/publisher/publishers lists yours, ` +
        'POST /api/v1/publisher/publishers {slug, name} makes one.',
    ),
  publisherSlugExists: (slug: string) => conflict('Publisher.SlugExists', `The publisher slug "${slug}" is taken.`),
  categoryInvalid: (type: ItemType, slugs: string[]) =>
    badRequest(
      'Category.Invalid',
      `Unknown ${type} categor${slugs.length === 1 ? 'y' : 'ies'}: ${slugs.join(', ')} (see GET /api/v1/${type}/categories).`,
    ),
  bundleMissing: (version: string) =>
    badRequest(
      'Skill.InvalidBundle',
      `Version ${version} has no uploaded bundle; upload the .zip before submitting it for review.`,
    ),
  bundleNotParsed: (version: string) =>
    conflict(
      'Skill.BundleNotParsed',
      `Version ${version}'s bundle is still being parsed; approve it once the parse has filled its contents (request changes or reject need not wait).`,
    ),
  reportNotFound: () => notFound('Report.NotFound', 'No such report.'),
  ratingNotFound: (type: ItemType) => notFound('Rating.NotFound', `This account has not rated the ${type}.`),
  reportNotOpen: () => conflict('Report.NotOpen', 'The report is already resolved.'),
} satisfies Record<string, (...args: never[]) => AppError>;
