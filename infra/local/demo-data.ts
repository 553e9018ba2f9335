import type { JobCategory } from '../../shared/categories.js';
import type { Role } from '../../shared/roles.js';

/** Demo accounts created on the first `npm run dev` (listed in the README). */
export const DEMO_PASSWORD = 'oddjobs-demo-1';

export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'admin@oddjobs.test', name: 'Avery Admin', role: 'admin' },
  { email: 'paula@oddjobs.test', name: 'Paula Poster', role: 'poster' },
  { email: 'omar@oddjobs.test', name: 'Omar Owens', role: 'poster' },
  { email: 'wendy@oddjobs.test', name: 'Wendy Worker', role: 'worker' },
  { email: 'marco@oddjobs.test', name: 'Marco Diaz', role: 'worker' },
];

/** Demo workers whose identity Stripe verified (issue 47): the badge shows on their profile, applications and chats. */
export const DEMO_VERIFIED_IDENTITIES: readonly string[] = ['wendy@oddjobs.test'];

export interface DemoJob {
  poster: string;
  title: string;
  description: string;
  street: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  paymentCents: number;
  category: JobCategory;
  inDays: number;
  duration: string;
  requirements: string[];
  skills: string[];
  /** Only ID-verified workers may apply (issue 47). */
  verifiedWorkersOnly?: true;
}

/** A dozen open jobs around Austin, Texas, at real street coordinates. */
export const DEMO_JOBS: readonly DemoJob[] = [
  { poster: 'paula@oddjobs.test', title: 'Move a sofa and two armchairs', description: 'Moving living room furniture from a second-floor apartment into a rental truck parked out front. Stairs, no elevator.', street: '1100 Congress Ave', city: 'Austin', state: 'TX', latitude: 30.2747, longitude: -97.7404, paymentCents: 12000, category: 'Moving', inDays: 3, duration: '3 hours', requirements: ['Able to lift 50 lbs', 'Comfortable with stairs'], skills: ['Heavy lifting', 'Furniture moving'] },
  { poster: 'paula@oddjobs.test', title: 'Deep clean a two-bedroom apartment', description: 'Move-out clean: kitchen, two bathrooms, floors and inside the fridge. Supplies provided.', street: '2201 S Lamar Blvd', city: 'Austin', state: 'TX', latitude: 30.2459, longitude: -97.7787, paymentCents: 15000, category: 'Cleaning', inDays: 5, duration: '5 hours', requirements: ['Attention to detail'], skills: ['Deep cleaning', 'Kitchen cleaning', 'Bathrooms'] },
  { poster: 'omar@oddjobs.test', title: 'Mow and edge a front and back lawn', description: 'Medium-sized yard in Mueller. Mower and edger in the garage. Bag the clippings please.', street: '1900 Aldrich St', city: 'Austin', state: 'TX', latitude: 30.2985, longitude: -97.7056, paymentCents: 6000, category: 'Yard Work', inDays: 2, duration: '2 hours', requirements: [], skills: ['Lawn mowing', 'Edging'] },
  { poster: 'omar@oddjobs.test', title: 'Assemble an IKEA wardrobe', description: 'PAX wardrobe with sliding doors, still in boxes. Needs to be anchored to the wall.', street: '4500 Duval St', city: 'Austin', state: 'TX', latitude: 30.3087, longitude: -97.7224, paymentCents: 8500, category: 'Assembly', inDays: 4, duration: '3 hours', requirements: ['Bring a drill'], skills: ['Furniture assembly', 'Wall anchoring'] },
  { poster: 'paula@oddjobs.test', title: 'Walk a friendly golden retriever', description: 'Midday walks for Biscuit, Monday to Friday next week, around Zilker Park.', street: '2100 Barton Springs Rd', city: 'Austin', state: 'TX', latitude: 30.2642, longitude: -97.7695, paymentCents: 10000, category: 'Pet Care', inDays: 6, duration: '5 x 45 minutes', requirements: ['Loves dogs'], skills: ['Dog walking'], verifiedWorkersOnly: true },
  { poster: 'omar@oddjobs.test', title: 'Fix a leaking kitchen faucet', description: 'Single-handle faucet drips constantly. Replacement cartridge already bought.', street: '7000 Woodhollow Dr', city: 'Austin', state: 'TX', latitude: 30.3576, longitude: -97.7491, paymentCents: 7000, category: 'Handyman', inDays: 1, duration: '1 hour', requirements: ['Own basic tools'], skills: ['Plumbing', 'Repairs'] },
  { poster: 'paula@oddjobs.test', title: 'Set up chairs and tables for a backyard party', description: 'Forty folding chairs, six tables and string lights for a birthday party on Saturday.', street: '3800 Speedway', city: 'Austin', state: 'TX', latitude: 30.3018, longitude: -97.7342, paymentCents: 9000, category: 'Event Help', inDays: 7, duration: '3 hours', requirements: ['Available Saturday morning'], skills: ['Event setup', 'Lifting'] },
  { poster: 'omar@oddjobs.test', title: 'Paint a small home office', description: 'One 10x12 room, walls only, two coats. Paint and rollers supplied; furniture already moved out.', street: '5200 Burnet Rd', city: 'Austin', state: 'TX', latitude: 30.3246, longitude: -97.7393, paymentCents: 25000, category: 'Home Projects', inDays: 9, duration: '1 day', requirements: ['Painting experience'], skills: ['Interior painting', 'Taping'] },
  { poster: 'paula@oddjobs.test', title: 'Pick up a bookshelf from a store', description: 'Pick up a flat-packed bookshelf at a store on Ben White and deliver it to my place downtown. Needs a pickup truck or van.', street: '500 E Ben White Blvd', city: 'Austin', state: 'TX', latitude: 30.2203, longitude: -97.7596, paymentCents: 4500, category: 'Delivery', inDays: 2, duration: '1.5 hours', requirements: ['Pickup truck or van'], skills: ['Driving', 'Delivery'] },
  { poster: 'omar@oddjobs.test', title: 'Clean out a garage', description: 'Sort, bag and haul boxes to the curb for bulk pickup. About half a garage of stuff.', street: '6000 Manchaca Rd', city: 'Austin', state: 'TX', latitude: 30.2114, longitude: -97.8003, paymentCents: 11000, category: 'Cleaning', inDays: 8, duration: '4 hours', requirements: ['Gloves'], skills: ['Organizing', 'Hauling'] },
  { poster: 'paula@oddjobs.test', title: 'Trim hedges along a driveway', description: 'About 40 feet of boxwood hedges. Trimmer provided. Clean up clippings afterwards.', street: '1600 W 35th St', city: 'Austin', state: 'TX', latitude: 30.3063, longitude: -97.7524, paymentCents: 5500, category: 'Yard Work', inDays: 4, duration: '2 hours', requirements: [], skills: ['Hedge trimming', 'Yard cleanup'] },
  { poster: 'omar@oddjobs.test', title: 'Mount a TV and hide the cables', description: '65-inch TV on drywall with studs; wall mount included. Run the cables through an in-wall kit.', street: '2900 E Cesar Chavez St', city: 'Austin', state: 'TX', latitude: 30.2527, longitude: -97.7128, paymentCents: 9500, category: 'Handyman', inDays: 3, duration: '2 hours', requirements: ['Stud finder and drill'], skills: ['TV mounting', 'Drywall'] },
];

/** Workers with a stored location and nearby-job alerts on (downtown Austin, near the demo jobs). */
export const DEMO_LOCATIONS: ReadonlyArray<{ email: string; latitude: number; longitude: number; timeZone: string; radiusMiles: number }> = [
  { email: 'wendy@oddjobs.test', latitude: 30.2672, longitude: -97.7431, timeZone: 'America/Chicago', radiusMiles: 10 },
];

/** Searches a demo worker keeps (issue 46): listed on their notification settings page, alerting as jobs open. */
export const DEMO_SAVED_SEARCHES: ReadonlyArray<{ email: string; text: string; category: JobCategory | null; radiusMiles: number }> = [
  { email: 'wendy@oddjobs.test', text: 'hedges', category: 'Yard Work', radiusMiles: 10 },
  { email: 'wendy@oddjobs.test', text: 'furniture assembly', category: null, radiusMiles: 25 },
];

/** A few notifications of several types, so the bell and /notifications have something to show. `job` indexes DEMO_JOBS. */
export const DEMO_NOTIFICATIONS: ReadonlyArray<{
  to: string;
  type: 'new_job_nearby' | 'job_unassigned' | 'job_completed' | 'payment_released' | 'worker_question';
  job: number;
  title: string;
  message: string;
  minutesAgo: number;
  read?: boolean;
}> = [
  { to: 'wendy@oddjobs.test', type: 'new_job_nearby', job: 0, title: 'New job near you', message: 'Move a sofa and two armchairs (Austin, TX) is 0.5 miles from you', minutesAgo: 30 },
  { to: 'wendy@oddjobs.test', type: 'new_job_nearby', job: 6, title: 'New job near you', message: 'Set up chairs and tables for a backyard party (Austin, TX) is 2.4 miles from you', minutesAgo: 90 },
  { to: 'wendy@oddjobs.test', type: 'payment_released', job: 3, title: 'Payment released', message: 'Your payment for Assemble an IKEA wardrobe was released.', minutesAgo: 60 * 26, read: true },
  { to: 'marco@oddjobs.test', type: 'job_unassigned', job: 5, title: 'You were unassigned', message: 'The poster unassigned you from Fix a leaking kitchen faucet.', minutesAgo: 45 },
  { to: 'paula@oddjobs.test', type: 'job_completed', job: 1, title: 'Job marked completed', message: 'Deep clean a two-bedroom apartment is done: review it and release the payment.', minutesAgo: 20 },
  { to: 'paula@oddjobs.test', type: 'worker_question', job: 4, title: 'New question', message: 'Wendy Worker asked about Walk a friendly golden retriever.', minutesAgo: 75 },
];
/**
 * A job Wendy was assigned and a dispute Paula filed about it, with a short thread, so the
 * dispute panels and the admin's Disputes tab are alive on first start.
 */
export const DEMO_DISPUTE = {
  job: {
    poster: 'paula@oddjobs.test',
    title: 'Paint a backyard fence',
    description: 'Two coats on a 40-foot cedar fence. Paint and brushes in the shed.',
    street: '1501 E 6th St',
    city: 'Austin',
    state: 'TX',
    latitude: 30.2632,
    longitude: -97.7268,
    paymentCents: 14000,
    category: 'Home Projects',
    inDays: 2,
    duration: '6 hours',
    requirements: [],
    skills: ['Painting'],
  } satisfies DemoJob,
  worker: 'wendy@oddjobs.test',
  reporter: 'paula@oddjobs.test',
  type: 'quality',
  description: 'The second coat was skipped on the back side of the fence, and paint dripped onto the patio stones.',
  thread: [
    { from: 'wendy@oddjobs.test', message: 'The back side had one coat because the paint ran out. I can come back Saturday to finish it.' },
    { from: 'paula@oddjobs.test', message: 'Saturday works, but the drips on the patio need cleaning too.' },
    { from: 'admin@oddjobs.test', message: 'Thanks both. Please post a photo here once the second coat and the cleanup are done.' },
  ],
} as const;

/**
 * Jobs further along the loop, so the dashboards are alive on first start: Wendy works for
 * Omar on one job whose completion he declined (with the reason), finished another that waits
 * for his release, and was paid for a third, which both reviewed.
 */
export const DEMO_JOB_LOOP: ReadonlyArray<{
  job: Omit<DemoJob, 'latitude' | 'longitude' | 'requirements' | 'skills'>;
  worker: string;
  status: 'assigned' | 'completed' | 'paid';
  declineReason?: string;
  reviews?: { byPoster: { rating: number; comment: string }; byWorker: { rating: number; comment: string } };
}> = [
  {
    job: { poster: 'omar@oddjobs.test', title: 'Replace a porch light fixture', description: 'Swap the old porch light for a new motion-sensor fixture (bought). Breaker is labelled.', street: '1200 E 11th St', city: 'Austin', state: 'TX', paymentCents: 6500, category: 'Handyman', inDays: 1, duration: '1 hour' },
    worker: 'wendy@oddjobs.test',
    status: 'assigned',
    declineReason: 'The light still flickers when the motion sensor triggers. Could you check the wiring?',
  },
  {
    job: { poster: 'omar@oddjobs.test', title: 'Patch two holes in a hallway wall', description: 'Two doorknob-sized holes in drywall; patch, sand and touch up the paint (paint provided).', street: '3400 Harmon Ave', city: 'Austin', state: 'TX', paymentCents: 8000, category: 'Home Projects', inDays: 2, duration: '2 hours' },
    worker: 'wendy@oddjobs.test',
    status: 'completed',
  },
  {
    job: { poster: 'omar@oddjobs.test', title: 'Rake leaves in a backyard', description: 'Rake and bag the leaves of a medium backyard; bags and rakes in the shed.', street: '4100 Avenue D', city: 'Austin', state: 'TX', paymentCents: 5000, category: 'Yard Work', inDays: 1, duration: '2 hours' },
    worker: 'wendy@oddjobs.test',
    status: 'paid',
    reviews: {
      byPoster: { rating: 5, comment: 'Fast, tidy and friendly. The yard looks great.' },
      byWorker: { rating: 4, comment: 'Clear instructions and everything was ready.' },
    },
  },
];

export interface DemoConversation {
  jobTitle: string;
  worker: string;
  /** In order; `worker: true` when the worker writes it. The last ones stay unread by the other side. */
  messages: ReadonlyArray<{ worker: boolean; text: string }>;
  /** The poster blocked the worker after these messages. */
  blocked?: boolean;
}

/** A few chats between the demo users, so the messages screens and the header badge are alive. */
export const DEMO_CONVERSATIONS: readonly DemoConversation[] = [
  {
    jobTitle: 'Move a sofa and two armchairs',
    worker: 'wendy@oddjobs.test',
    messages: [
      { worker: true, text: 'Hi Paula! Is the truck already booked, or should I bring a dolly?' },
      { worker: false, text: 'The truck is booked for 9am. A dolly would be great, thanks!' },
      { worker: true, text: 'Perfect, I have one. How narrow is the staircase?' },
      { worker: false, text: 'About 3 feet wide with one turn at the landing.' },
    ],
  },
  {
    jobTitle: 'Fix a leaking kitchen faucet',
    worker: 'marco@oddjobs.test',
    messages: [
      { worker: true, text: 'Hello Omar, which brand is the faucet? I want to be sure the cartridge fits.' },
      { worker: false, text: "It's a Moen single-handle, about five years old." },
      { worker: true, text: 'Great, that cartridge is standard. I can come tomorrow afternoon.' },
    ],
  },
  {
    jobTitle: 'Trim hedges along a driveway',
    worker: 'marco@oddjobs.test',
    messages: [
      { worker: true, text: 'Can you pay me cash instead, outside the app?' },
      { worker: false, text: 'No, payments go through OddJobs only.' },
    ],
    blocked: true,
  },
];
