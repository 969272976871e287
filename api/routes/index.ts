// Every route area of the API, mounted in the order api/routes/areas.ts lists them.
export { mountAreas as mountRoutes } from './mount.js';
