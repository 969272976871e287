// Every table of the system of record; drizzle-kit generates the migrations from these modules.
export * from './identity.js';
export * from './catalog.js';
