import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ResolutionTemplate } from '../../shared/api.js';
import { conditionHeld, db, queryAll, tableName } from '../lib/db.js';
import { keys } from '../table.js';

/**
 * The resolution templates every deployment starts with (spec 2 §3: `dispute_type` null fits
 * every type). Their ids are fixed, so seeding them is idempotent: the first read of the
 * templates (in AWS as in the local stack) writes whichever are missing.
 */
export const DEFAULT_RESOLUTION_TEMPLATES: readonly ResolutionTemplate[] = [
  {
    id: 'resolved-by-agreement',
    title: 'Resolved by mutual agreement',
    resolutionText: 'Both parties reached an agreement in this thread. We are closing the dispute; thank you for working it out.',
    disputeType: null,
  },
  {
    id: 'insufficient-evidence',
    title: 'Insufficient evidence',
    resolutionText: 'After reviewing the job, the messages and both accounts, we could not find enough evidence to take action. The dispute is closed.',
    disputeType: null,
  },
  {
    id: 'payment-released',
    title: 'Payment released to the worker',
    resolutionText: 'The work was completed as agreed, so the payment has been released to the worker.',
    disputeType: 'payment',
  },
  {
    id: 'payment-refunded',
    title: 'Payment refunded to the poster',
    resolutionText: 'The job was not completed as agreed, so the poster has been refunded in full.',
    disputeType: 'payment',
  },
  {
    id: 'quality-redo',
    title: 'Work to be redone',
    resolutionText: 'The work did not meet the job description. The worker has agreed to redo it at no extra cost.',
    disputeType: 'quality',
  },
  {
    id: 'behavior-warning',
    title: 'Warning issued',
    resolutionText: 'We reviewed the conduct reported and issued a formal warning. Repeated violations will lead to suspension.',
    disputeType: 'behavior',
  },
];

interface TemplateItem extends ResolutionTemplate {
  pk: string;
  sk: string;
}

const toTemplate = ({ id, title, resolutionText, disputeType }: TemplateItem): ResolutionTemplate => ({ id, title, resolutionText, disputeType });

/** Writes a default template unless it exists (an admin's later edit is kept). */
async function seedTemplate(template: ResolutionTemplate): Promise<void> {
  await conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.resolutionTemplate(template.id), type: 'resolutionTemplate', ...template },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** The templates ordered by title (spec 2 §7); the defaults missing from the table are written first. */
export async function listResolutionTemplates(): Promise<ResolutionTemplate[]> {
  const read = () => queryAll<TemplateItem>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.resolutionTemplates() } });
  let items = await read();
  const stored = new Set(items.map((item) => item.id));
  const missing = DEFAULT_RESOLUTION_TEMPLATES.filter((template) => !stored.has(template.id));
  if (missing.length) {
    await Promise.all(missing.map(seedTemplate));
    items = await read();
  }
  return items.map(toTemplate).sort((a, b) => a.title.localeCompare(b.title));
}

/** One template by id; a default one is found even before the first list seeded it. */
export async function getResolutionTemplate(templateId: string): Promise<ResolutionTemplate | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.resolutionTemplate(templateId) }));
  return Item ? toTemplate(Item as TemplateItem) : DEFAULT_RESOLUTION_TEMPLATES.find((template) => template.id === templateId);
}
