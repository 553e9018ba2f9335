import { Link } from 'react-router-dom';
import { MAX_PENDING_APPLICATIONS } from '../../../../../shared/limits';
import { FEE_CONFIG, formatCents } from '../../../../../shared/money';
import { LegalDocument, type LegalSection } from '../components/legal/LegalDocument';
import { SUPPORT_EMAIL } from '../components/legal/contact';

const feePercent = `${FEE_CONFIG.posterFeePercent}%`;
const minimumFee = formatCents(FEE_CONFIG.minimumFeeCents);

const SECTIONS: readonly LegalSection[] = [
  {
    title: 'Acceptance of These Terms',
    body: (
      <p>
        These Terms of Service govern your use of OddJobs, a marketplace that connects people who need help with local
        tasks (job posters) with people who want to do them (workers). By creating an account or using the site you agree
        to these terms and to our <Link to="/privacy-policy">Privacy Policy</Link>. If you do not agree, do not use OddJobs.
      </p>
    ),
  },
  {
    title: 'Eligibility',
    body: (
      <ul className="bullets">
        <li>You must be at least 18 years old to use OddJobs.</li>
        <li>One account per person. You may not create an account for someone else or hold more than one account.</li>
        <li>You must give your real name and an email address you control, and keep them up to date.</li>
      </ul>
    ),
  },
  {
    title: 'Your Account',
    body: (
      <>
        <p>
          You choose whether you join as a worker or as a job poster; the account type cannot be changed later. Your email
          address must be verified before you can sign in.
        </p>
        <p>
          Keep your password secret. You are responsible for everything done with your account. If you think someone else
          has used it, reset your password and use Sign Out Everywhere on your profile page.
        </p>
      </>
    ),
  },
  {
    title: 'How the Marketplace Works',
    body: (
      <>
        <p>
          Job posters publish jobs with a description, a date, a location and a fixed payment. Workers apply; the poster
          reviews the applicants and accepts one. The assigned worker does the job and marks it completed, and the poster
          then releases the payment.
        </p>
        <p>
          OddJobs provides the venue and processes the payments. We are not a party to the agreement between a poster and a
          worker, we do not employ workers, and workers are not our agents. Workers decide which jobs they take and how
          they do them.
        </p>
      </>
    ),
  },
  {
    title: 'Posting Jobs',
    body: (
      <ul className="bullets">
        <li>Only job poster accounts can post jobs.</li>
        <li>Describe the task honestly, including anything that makes it heavy, dirty or risky.</li>
        <li>Jobs must be lawful, safe to perform, and something you have the right to ask for at that address.</li>
        <li>The full street address is shown only to the worker you assign; everyone else sees the city and state.</li>
        <li>The price of a job cannot be changed after it has been paid for. Other details can be edited while the job is open.</li>
      </ul>
    ),
  },
  {
    title: 'Applying for Jobs',
    body: (
      <ul className="bullets">
        <li>Only worker accounts can apply, and never to their own jobs.</li>
        <li>
          A job posting accepts at most {MAX_PENDING_APPLICATIONS} applications; once it has them, it is closed to new
          applicants.
        </li>
        <li>When the poster accepts one applicant, the other applications for that job are declined.</li>
        <li>Only apply for work you are able and willing to do on the date given.</li>
      </ul>
    ),
  },
  {
    title: 'Payments and Fees',
    body: (
      <>
        <p>
          The poster pays the full amount upfront, when the job is posted, to secure a worker. The amount is the job&apos;s
          payment plus the platform fee. The platform fee is {feePercent} of the payment, with a minimum of {minimumFee},
          and is always shown before you pay.
        </p>
        <p>Workers pay no fees: the worker receives the full payment of the job.</p>
        <p>
          Payments and payouts are processed by Stripe. To post or to apply you need a payment account set up through
          Stripe; by setting one up you also accept Stripe&apos;s terms. OddJobs never sees or stores your card or bank
          details.
        </p>
      </>
    ),
  },
  {
    title: 'Completion and Payout',
    body: (
      <>
        <p>
          The worker is paid on completion. When the assigned worker marks the job completed, the poster either releases
          the payment or declines the completion with a reason, and the job returns to the worker to finish.
        </p>
        <p>
          Released payments are transferred to the worker&apos;s connected payment account. How soon the money reaches the
          worker&apos;s bank depends on the payout option they choose with Stripe.
        </p>
      </>
    ),
  },
  {
    title: 'Cancellations and Refunds',
    body: (
      <ul className="bullets">
        <li>A poster who deletes an open job, or cancels a job after assigning a worker, is refunded in full.</li>
        <li>A job that was saved but never paid for is never published and expires.</li>
        <li>Refunds go back to the card that paid and may take a few business days to appear.</li>
      </ul>
    ),
  },
  {
    title: 'Disputes',
    body: (
      <>
        <p>
          If something goes wrong with a job, either the poster or the assigned worker can file a dispute from the job. Only
          the OddJobs admin team reviews disputes; a first response typically takes 24-48 hours.
        </p>
        <p>
          Payment disputes must be raised with support within 30 days of the transaction. After that we may be unable to
          investigate or reverse a payment.
        </p>
      </>
    ),
  },
  {
    title: 'Reviews and Messages',
    body: (
      <p>
        After a job is paid, the poster and the worker may review each other. Reviews must be honest and about the job.
        Messages are for arranging and doing the job: no harassment, spam, or attempts to take payment outside OddJobs.
      </p>
    ),
  },
  {
    title: 'Prohibited Conduct',
    body: (
      <>
        <p>You may not use OddJobs to:</p>
        <ul className="bullets">
          <li>post or do illegal, dangerous or discriminatory work;</li>
          <li>mislead other users about who you are, a job, or work done;</li>
          <li>avoid the platform fee by arranging payment for a job found here outside OddJobs;</li>
          <li>interfere with the site, probe its security, or collect other users&apos; data.</li>
        </ul>
        <p>We may remove content and suspend or close accounts that break these terms.</p>
      </>
    ),
  },
  {
    title: 'Safety',
    body: (
      <p>
        OddJobs does not run background checks. Meet in a public place when you can, verify the other person&apos;s identity,
        agree on the details in the job&apos;s messages, trust your instincts, and share the job details with someone you
        trust.
      </p>
    ),
  },
  {
    title: 'Limitation of Liability',
    body: (
      <>
        <p>
          OddJobs is provided as it is. We are not responsible for the conduct of posters or workers, or for the quality,
          safety or legality of the jobs they agree on.
        </p>
        <p>
          To the extent the law allows, our total liability to you for any claim is limited to the fees you paid to
          OddJobs in the 12 months before the claim arose.
        </p>
      </>
    ),
  },
  {
    title: 'Changes, Termination and Contact',
    body: (
      <>
        <p>
          We may update these terms; the date at the top shows the latest version, and continuing to use OddJobs after a
          change means you accept it. You may stop using OddJobs at any time, and we may suspend accounts that break these
          terms.
        </p>
        <p>
          Questions about these terms: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </>
    ),
  },
];

export default function TermsOfServiceScreen() {
  return (
    <LegalDocument
      title="Terms of Service"
      intro={<p>Please read these terms carefully: they are the rules for posting, doing and paying for jobs on OddJobs.</p>}
      sections={SECTIONS}
    />
  );
}
