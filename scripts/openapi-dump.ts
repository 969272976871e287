// Prints the generated OpenAPI document (the one GET /openapi.json serves), to compare it across changes.
import { openApiDocument } from '../api/openapi/document.js';

process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
