// Balance alerts: e-mail to the organization's Admins and the signed webhook, for crossing and test alerts alike.
import { mailerFor } from '../../shared/mail/mailer.js';
import { deliverAlert } from '../../shared/wallet/alert-delivery.js';
import { webhookClient } from '../../shared/wallet/alert-webhook.js';
import type { Processor } from '../processor.js';

const processor: Processor = async (job, ctx) => {
  if (job.name !== 'balance-alert' && job.name !== 'test-alert') throw new Error(`alerts has no job named ${job.name}`);
  const attempts = job.opts.attempts ?? 1;
  return deliverAlert(
    ctx,
    String(job.data.alertId),
    { mailer: mailerFor(ctx.config), webhook: webhookClient(ctx.config) },
    { lastAttempt: job.attemptsMade + 1 >= attempts },
  );
};

export default processor;
export const concurrency = 4;
