import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CategoryStats } from '../../shared/admin.js';
import { JOB_CATEGORIES, type JobCategory } from '../../shared/categories.js';
import { PAY_BAND_FLOORS, earningsRangeOf, payBandAttribute, type CategoryEarnings } from '../../shared/earnings-ranges.js';
import { MSG } from '../../shared/messages.js';
import { db, tableName } from '../lib/db.js';
import { queryEveryShard } from '../lib/sharded-lists.js';
import { badRequest } from '../lib/errors.js';
import { transactWrite } from '../lib/transactions.js';
import { keys } from '../table.js';
import { adminActionPut } from '../lib/admin-actions.js';

/**
 * Categories (issue 27): the list stays declared in shared/categories.ts; the table holds only
 * which of them the admin hid from posting (one item, a string set) and each category's
 * running figures, which the market-stats rule keeps with the markets' (market-stats.ts): the
 * admin's table and the earnings ranges of the landing page's cards.
 */

/** The categories hidden from posting: one GetItem. */
export async function hiddenCategories(): Promise<JobCategory[]> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.hiddenCategories() }));
  const names = (Item?.names as Set<string> | undefined) ?? new Set<string>();
  return JOB_CATEGORIES.filter((category) => names.has(category));
}

/** Refuses a hidden category for a new job, or for a job moving into it; a job already in it keeps it. */
export async function requirePostableCategory(category: JobCategory, current?: string): Promise<void> {
  if (category === current) return;
  if ((await hiddenCategories()).includes(category)) throw badRequest(MSG.jobs.categoryNotPostable, { category: MSG.jobs.categoryNotPostable });
}

/** Hides a category from posting or shows it again, with the admin's audit entry in the same transaction. */
export async function setCategoryHidden(category: JobCategory, hidden: boolean, reason: string, adminId: string): Promise<void> {
  await transactWrite([
    {
      Update: {
        TableName: tableName(),
        Key: keys.hiddenCategories(),
        UpdateExpression: `${hidden ? 'ADD' : 'DELETE'} #names :name`,
        ExpressionAttributeNames: { '#names': 'names' },
        ExpressionAttributeValues: { ':name': new Set([category]) },
      },
    },
    adminActionPut({ adminId, actionType: hidden ? 'hide_category' : 'show_category', targetType: 'category', targetId: category, details: {}, reason }),
  ]);
}

/** Every category's totals item (one per category that has jobs) by its name: one Query per shard of GSI1 `CATEGORIES#<shard>`, in parallel. */
async function categoryTotals(): Promise<Map<string, Record<string, unknown>>> {
  const totals = await queryEveryShard<Record<string, unknown>>(keys.allCategories().partitions, { IndexName: 'GSI1' });
  return new Map(totals.map((item) => [String(item.category), item]));
}

/** Every declared category with its figures and visibility: the totals and one GetItem. */
export async function listCategoryStats(): Promise<CategoryStats[]> {
  const [byName, hidden] = await Promise.all([categoryTotals(), hiddenCategories()]);
  return JOB_CATEGORIES.map((category) => {
    const figure = (name: string) => Number(byName.get(category)?.[name] ?? 0);
    return {
      category,
      hidden: hidden.includes(category),
      openJobs: figure('openJobs'),
      completedJobs: figure('completedJobs'),
      averagePayment: figure('jobs') > 0 ? Math.round(figure('payment') / figure('jobs')) : null,
      revenue: figure('revenue'),
    };
  });
}

/** Every declared category's earnings range (the landing page's cards), from the pay bands its totals count. */
export async function listCategoryEarnings(): Promise<CategoryEarnings[]> {
  const byName = await categoryTotals();
  return JOB_CATEGORIES.map((category) => {
    const totals = byName.get(category);
    const jobsPerBand = new Map(PAY_BAND_FLOORS.map((floor) => [floor, Number(totals?.[payBandAttribute(floor)] ?? 0)]));
    return { category, range: earningsRangeOf(jobsPerBand) };
  });
}
