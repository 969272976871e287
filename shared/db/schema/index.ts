// Every table of the system of record; drizzle-kit generates the migrations from these modules.
export * from './audit.js';
export * from './catalog.js';
export * from './gateway.js';
export * from './identity.js';
export * from './organizations.js';
export * from './telemetry.js';
export * from './top-up-codes.js';
export * from './video.js';
export * from './wallet.js';
