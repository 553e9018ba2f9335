import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from '../../../shared/zod.js';
import { expireDrafts } from '../../jobs/draft-expiry.js';
import { RETRY_PENDING_AFTER_SECONDS, retryPendingDecisions } from '../executor.js';
import { logger, withLogContext } from '../../lib/logger.js';
import { OVERDUE_DECISIONS_METRIC } from '../../routes.js';

const metrics = new Metrics({ namespace: OVERDUE_DECISIONS_METRIC.namespace, serviceName: OVERDUE_DECISIONS_METRIC.service });

/** The schedule's input is empty; an operator (or a test) may ask it to retry decisions younger than the usual wait. */
const inputSchema = z.object({ retryAfterSeconds: z.optional(z.int().check(z.minimum(0))) });

/**
 * The retry schedule's target (RECURRING_SCHEDULES.moneyDecisions), every few minutes: carries out
 * again the money decisions still pending, removes the unpaid drafts a day old (cancelling their
 * PaymentIntents), and publishes how many decisions are overdue (CloudWatch's embedded metric
 * format, which the alarm watches). Answers what it did.
 */
export const handler = withLogContext(async (input: unknown) => {
  const parsed = inputSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(`Invalid input: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const decisions = await retryPendingDecisions(new Date(), parsed.data.retryAfterSeconds ?? RETRY_PENDING_AFTER_SECONDS);
  const expiredDrafts = await expireDrafts();
  logger.info('money decisions retried', { ...decisions, expiredDrafts });
  metrics.addDimension(OVERDUE_DECISIONS_METRIC.dimension, process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'unknown');
  metrics.addMetric(OVERDUE_DECISIONS_METRIC.name, MetricUnit.Count, decisions.overdue);
  metrics.publishStoredMetrics();
  return { ...decisions, expiredDrafts };
});
