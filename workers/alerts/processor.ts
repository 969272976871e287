// Balance alerts: e-mail to the organization's Admins and the signed webhook, for crossing and test alerts alike.
import type { Job } from 'bullmq';
import type { AppContext } from '../../shared/context.js';
import { mailerFor } from '../../shared/mail/mailer.js';
import { isDeferred, TENANT_SHARE_PAUSE_MS } from '../../shared/queues/tenant-share.js';
import { deliverAlert } from '../../shared/wallet/alert-delivery.js';
import { webhookClient } from '../../shared/wallet/alert-webhook.js';
import { deferJob, defineQueueWorker } from '../processor.js';

const deliver = async ({ alertId }: { alertId: string }, ctx: AppContext, job: Job, token?: string) => {
  const result = await deliverAlert(
    ctx,
    alertId,
    { mailer: mailerFor(ctx.config), webhook: webhookClient(ctx.config) },
    { lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) },
  );
  // The organization has its share of deliveries running: this one waits in the delayed set, holding no slot.
  if (isDeferred(result)) return deferJob(job, token, TENANT_SHARE_PAUSE_MS);
  // The webhook's attempt failed and another is due: the pause too is spent in the delayed set, holding no slot and
  // no place of the organization's share, and spending none of the job's attempts (the e-mail's and the errors').
  if ('retryWebhookInMs' in result && result.retryWebhookInMs !== undefined) {
    return deferJob(job, token, result.retryWebhookInMs);
  }
  return result;
};

export default defineQueueWorker('alerts', { 'balance-alert': deliver, 'test-alert': deliver }, { concurrency: 4 });
