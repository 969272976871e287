// Ledger: writes one organization's settled gateway requests from its Redis stream to PostgreSQL in batches.
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { defineQueueWorker } from '../processor.js';

export default defineQueueWorker(
  'ledger',
  { write: ({ organizationId }, ctx) => writeLedger(ctx, organizationId, { paced: true }) },
  // Organizations write in parallel; two jobs of one organization take turns on its wallet row.
  { concurrency: 8 },
);
