import * as z from '../zod.js';
import { JOB_CATEGORIES } from '../categories.js';
import { MSG } from '../messages.js';
import { MAX_JOB_IMAGES } from '../limits.js';
import { PAYMENT_LIMITS, dollarsToCents } from '../money.js';
import { freeText } from '../text.js';
import { SEARCH_RADIUS_MILES } from '../search.js';

const m = MSG.jobForm;

/** Free-text lists (requirements, skills): one entry per line, trimmed, blank lines dropped. */
export function splitLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

const entryList = z._default(
  z.pipe(
    z.array(freeText(z.maxLength(100, m.entryTooLong))).check(z.maxLength(20, m.tooManyEntries)),
    z.transform((entries: string[]) => entries.filter((entry) => entry.length > 0)),
  ),
  [],
);

/** A due date as YYYY-MM-DD that is not before yesterday (tolerates the poster's time zone). */
const dueDate = z.string().check(
  z.trim(),
  z.minLength(1, m.dateRequired),
  z.regex(/^\d{4}-\d{2}-\d{2}$/, m.dateRequired),
  z.refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), m.dateRequired),
  z.refine((value) => Date.parse(`${value}T00:00:00Z`) >= Date.now() - 2 * 86_400_000, m.datePast),
);

export const addressSchema = z.object({
  street: freeText(z.minLength(1, m.streetRequired), z.maxLength(200)),
  city: freeText(z.minLength(1, m.cityRequired), z.maxLength(100)),
  state: freeText(z.minLength(1, m.stateRequired), z.maxLength(50)),
});
export type Address = z.infer<typeof addressSchema>;

/** The body of POST /jobs: what the server accepts to create a job. */
export const createJobSchema = z.object({
  title: freeText(z.minLength(1, m.titleRequired), z.maxLength(100, m.titleTooLong)),
  description: freeText(z.minLength(1, m.descriptionRequired), z.maxLength(2000, m.descriptionTooLong)),
  address: addressSchema,
  payment: z
    .int(m.validPayment)
    .check(z.minimum(PAYMENT_LIMITS.minCents, m.paymentPositive), z.maximum(PAYMENT_LIMITS.maxCents, m.paymentTooLarge)),
  category: z.enum(JOB_CATEGORIES, m.categoryRequired),
  date: dueDate,
  duration: freeText(z.minLength(1, m.durationRequired), z.maxLength(100)),
  requirements: entryList,
  skills: entryList,
  /** Keys of images uploaded with a presigned POST (POST /uploads/images). */
  images: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(300))).check(z.maxLength(MAX_JOB_IMAGES, m.tooManyImages)), []),
  /** Only workers whose identity Stripe verified may apply (issue 47). */
  verifiedWorkersOnly: z._default(z.boolean(), false),
  /** Workers apply with an offer, the payment being the budget (issue 45); set when posting, kept as posted. */
  openToOffers: z._default(z.boolean(), false),
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

/** The form's choices beside its text fields. */
export interface JobFormChoices {
  verifiedWorkersOnly?: boolean;
  openToOffers?: boolean;
}

/** Validates the form with the post page's rules first, then the server's schema. */
export function validateJobForm(values: JobFormValues, imageKeys: string[] = [], { verifiedWorkersOnly = false, openToOffers = false }: JobFormChoices = {}): JobFormResult {
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
    verifiedWorkersOnly,
    openToOffers,
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
const coordinate = (limit: number) => z.optional(z.pipe(z.coerce.number(), z.number().check(z.minimum(-limit), z.maximum(limit))));

/**
 * GET /jobs and /feed/jobs: words, a category, and where the searcher is (issue 46): `lat` and
 * `lng` (the browser's location) or `near=me` (the signed-in user's saved location), within
 * `radius` miles when given.
 */
export const browseJobsQuerySchema = z
  .object({
    q: z.optional(z.string().check(z.trim(), z.maxLength(100))),
    category: z.optional(z.enum(JOB_CATEGORIES)),
    limit: z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(50))), 20),
    cursor: z.optional(z.string().check(z.maxLength(2000))),
    lat: coordinate(90),
    lng: coordinate(180),
    near: z.optional(z.literal('me')),
    radius: z.optional(z.pipe(z.coerce.number(), z.number().check(z.refine((miles) => (SEARCH_RADIUS_MILES as readonly number[]).includes(miles), MSG.search.radiusChoice)))),
  })
  .check(
    z.refine((query) => (query.lat === undefined) === (query.lng === undefined), MSG.search.coordinatesTogether),
    z.refine((query) => query.radius === undefined || query.lat !== undefined || query.near !== undefined, MSG.search.locationNeeded),
  );

/** Body of POST /uploads/images: what the browser is about to upload. */
export const imageUploadRequestSchema = z.object({
  purpose: z.enum(['job', 'avatar']),
  fileName: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  contentType: z.string().check(z.maxLength(100)),
  size: z.int().check(z.minimum(1)),
});
