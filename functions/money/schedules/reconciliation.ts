import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { describeDifference, describeLoss, reconcile, reconciliationInputSchema } from '../reconciliation.js';
import { logger, withLogContext } from '../../lib/logger.js';
import { RECONCILIATION_METRIC } from '../../routes.js';

const metrics = new Metrics({ namespace: RECONCILIATION_METRIC.namespace, serviceName: RECONCILIATION_METRIC.service });

/**
 * The daily schedule's target (RECURRING_SCHEDULES.reconciliation), and what `npm run reconcile`
 * invokes: compares the ledger with Stripe, logs each difference, publishes their count as a
 * metric (CloudWatch's embedded metric format, which the alarm watches) and answers the result.
 * The input may name `since` and `graceSeconds`; the schedule's is empty.
 */
export const handler = withLogContext(async (input: unknown) => {
  const parsed = reconciliationInputSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(`Invalid reconciliation input: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const result = await reconcile(parsed.data);
  for (const difference of result.differences) logger.warn(describeDifference(difference), { difference });
  for (const loss of result.losses) logger.warn(describeLoss(loss), { loss });
  logger.info('reconciliation', { from: result.from, checkedThrough: result.checkedThrough, stripeObjects: result.stripeObjects, movements: result.movements, differences: result.differences.length });
  // Lambda's own variable (the local runtime sets it too): the metric is this stage's function's.
  metrics.addDimension(RECONCILIATION_METRIC.dimension, process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'unknown');
  metrics.addMetric(RECONCILIATION_METRIC.name, MetricUnit.Count, result.differences.length);
  metrics.publishStoredMetrics();
  return result;
});
