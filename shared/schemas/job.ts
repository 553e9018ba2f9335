import { z } from 'zod';
import { JOB_CATEGORIES } from '../categories.js';
import { MSG } from '../messages.js';
import { MAX_JOB_IMAGES } from '../limits.js';
import { PAYMENT_LIMITS, dollarsToCents } from '../money.js';
import { freeText } from '../text.js';

const m = MSG.jobForm;

/** Free-text lists (requirements, skills): one entry per line, trimmed, blank lines dropped. */
export function splitLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

const entryList = z
  .array(freeText().pipe(z.string().trim().max(100, m.entryTooLong)))
  .max(20, m.tooManyEntries)
  .transform((entries) => entries.filter((entry) => entry.length > 0))
  .default([]);

/** A due date as YYYY-MM-DD that is not before yesterday (tolerates the poster's time zone). */
const dueDate = z
  .string()
  .trim()
  .min(1, m.dateRequired)
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.dateRequired)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), m.dateRequired)
  .refine((value) => Date.parse(`${value}T00:00:00Z`) >= Date.now() - 2 * 86_400_000, m.datePast);

export const addressSchema = z.object({
  street: freeText().pipe(z.string().trim().min(1, m.streetRequired).max(200)),
  city: freeText().pipe(z.string().trim().min(1, m.cityRequired).max(100)),
  state: freeText().pipe(z.string().trim().min(1, m.stateRequired).max(50)),
});
export type Address = z.infer<typeof addressSchema>;

/** The body of POST /jobs: what the server accepts to create a job. */
export const createJobSchema = z.object({
  title: freeText().pipe(z.string().trim().min(1, m.titleRequired).max(100, m.titleTooLong)),
  description: freeText().pipe(z.string().trim().min(1, m.descriptionRequired).max(2000, m.descriptionTooLong)),
  address: addressSchema,
  payment: z
    .number(m.validPayment)
    .int(m.validPayment)
    .min(PAYMENT_LIMITS.minCents, m.paymentPositive)
    .max(PAYMENT_LIMITS.maxCents, m.paymentTooLarge),
  category: z.enum(JOB_CATEGORIES, m.categoryRequired),
  date: dueDate,
  duration: freeText().pipe(z.string().trim().min(1, m.durationRequired).max(100)),
  requirements: entryList,
  skills: entryList,
  /** Keys of images uploaded with a presigned POST (POST /uploads/images). */
  images: z.array(z.string().min(1).max(300)).max(MAX_JOB_IMAGES, m.tooManyImages).default([]),
});
export type CreateJobInput = z.input<typeof createJobSchema>;
export type CreateJobRequest = z.output<typeof createJobSchema>;

/**
 * The post-job form as the browser holds it (all text). `toCreateJobRequest` turns it into
 * the API body; both the form's live validation and the server use `createJobSchema`.
 */
export interface JobFormValues {
  title: string;
  description: string;
  street: string;
  city: string;
  state: string;
  payment: string;
  category: string;
  date: string;
  duration: string;
  requirements: string;
  skills: string;
}

export const EMPTY_JOB_FORM: JobFormValues = {
  title: '',
  description: '',
  street: '',
  city: '',
  state: '',
  payment: '',
  category: '',
  date: '',
  duration: '',
  requirements: '',
  skills: '',
};

const REQUIRED_FIELDS: ReadonlyArray<keyof JobFormValues> = [
  'title',
  'description',
  'category',
  'street',
  'city',
  'state',
  'payment',
  'date',
  'duration',
];

export type JobFormResult =
  | { ok: true; request: CreateJobRequest }
  | { ok: false; formError?: string; fieldErrors: Partial<Record<keyof JobFormValues, string>> };

/** Validates the form with the post page's rules first, then the server's schema. */
export function validateJobForm(values: JobFormValues, imageKeys: string[] = []): JobFormResult {
  const fieldErrors: Partial<Record<keyof JobFormValues, string>> = {};
  if (REQUIRED_FIELDS.some((field) => values[field].trim() === '')) {
    return { ok: false, formError: m.fillAllRequired, fieldErrors };
  }
  const cents = dollarsToCents(values.payment);
  if (cents === null || cents <= 0) {
    return { ok: false, formError: m.validPayment, fieldErrors: { payment: m.validPayment } };
  }
  const parsed = createJobSchema.safeParse({
    title: values.title,
    description: values.description,
    address: { street: values.street, city: values.city, state: values.state },
    payment: cents,
    category: values.category,
    date: values.date,
    duration: values.duration,
    requirements: splitLines(values.requirements),
    skills: splitLines(values.skills),
    images: imageKeys,
  });
  if (parsed.success) return { ok: true, request: parsed.data };
  for (const issue of parsed.error.issues) {
    const head = issue.path[0];
    const field = (head === 'address' ? issue.path[1] : head) as keyof JobFormValues;
    fieldErrors[field] ??= issue.message;
  }
  return { ok: false, fieldErrors };
}

/** Query of the open-jobs grid: GET /jobs and GET /feed/jobs. */
export const browseJobsQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  category: z.enum(JOB_CATEGORIES).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(2000).optional(),
});

/** Body of POST /uploads/images: what the browser is about to upload. */
export const imageUploadRequestSchema = z.object({
  purpose: z.enum(['job', 'avatar']),
  fileName: z.string().trim().min(1).max(200),
  contentType: z.string().max(100),
  size: z.number().int().min(1),
});
