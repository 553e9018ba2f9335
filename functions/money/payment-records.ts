import type { PaymentRecord } from '../../shared/api.js';
import { tableName } from '../lib/db.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';

/**
 * A charge's row in the admin's payments list, written once with the movement that records the
 * charge: a job's payment, a tip, a gone draft's refunded payment. Its indexes list it among all
 * payments (GSI1, newest first) and among its poster's (GSI2, the suspicious-payment count).
 */
export function paymentRecordPut(record: PaymentRecord & { refundedAt?: string }): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.payment(record.id),
        type: 'payment',
        ...record,
        gsi1pk: keys.paymentsLog().partitionOf(record.id),
        gsi1sk: timeOrdered(record.createdAt, record.id),
        gsi2pk: keys.paymentsOfPoster(record.posterId),
        gsi2sk: record.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
