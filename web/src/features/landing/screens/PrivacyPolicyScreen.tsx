import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../components/legal/contact';
import { LegalDocument, type LegalSection } from '../components/legal/LegalDocument';
import { MSG } from '../../../../../shared/messages';

const SECTIONS: readonly LegalSection[] = [
  {
    title: 'Information We Collect',
    body: (
      <ul className="bullets">
        <li>Account details: your name, email address, password (held by our sign-in service, never readable by us) and account type.</li>
        <li>Profile details you choose to add: a picture, bio, skills and location.</li>
        <li>What you do on OddJobs: jobs you post or apply for, messages, reviews, disputes and saved jobs.</li>
        <li>Payment account status from Stripe: whether your account is set up and can pay or be paid, never your card or bank numbers.</li>
        <li>If you verify your identity: whether Stripe verified it, when, and Stripe&apos;s reference to the check.</li>
        <li>Security records: sign-in attempts and rate-limit counters that protect your account from abuse.</li>
      </ul>
    ),
  },
  {
    title: 'How We Use Your Information',
    body: (
      <ul className="bullets">
        <li>To run the marketplace: show jobs, pass applications and messages between posters and workers, and process payments.</li>
        <li>To keep accounts and payments safe: verify email addresses, limit repeated attempts, and investigate disputes and fraud.</li>
        <li>To tell you about things that concern you: verification and password codes, job updates and, if you ask for them, nearby jobs.</li>
      </ul>
    ),
  },
  {
    title: 'Location Information',
    body: (
      <p>
        Sharing your location is optional. If you set it, we use it to notify you of new jobs within the radius you choose.
        A job&apos;s full street address is shown only to the worker assigned to it; everyone else sees its city and state.
      </p>
    ),
  },
  {
    title: 'What Other Users Can See',
    body: (
      <p>
        Your public profile shows your name, picture, rating, number of completed jobs, bio, skills and, once Stripe verified your
        identity, an &quot;ID verified&quot; badge. Other users never see
        your email address or your payment details.
      </p>
    ),
  },
  {
    title: 'Payments',
    body: (
      <p>
        Payments and payouts are processed by Stripe. Card and bank details go directly to Stripe and are handled under
        Stripe&apos;s own privacy policy; we receive only what we need to run the marketplace, such as whether a payment
        succeeded and whether your payment account is ready.
      </p>
    ),
  },
  {
    title: 'Identity Verification',
    body: (
      <p>
        Verifying your identity is optional. Stripe Identity checks a photo of your government ID against a live selfie and keeps
        them under Stripe&apos;s own privacy policy. We store only whether you are verified, when, and Stripe&apos;s reference to
        the check — never your document, your photo, your date of birth or an ID number. Posters see an &quot;ID verified&quot;
        badge on your profile, your applications and in chat. When you delete your account, we ask Stripe to erase the check&apos;s
        data (its redaction).
      </p>
    ),
  },
  {
    title: 'Where Your Data Is Stored',
    body: (
      <p>
        OddJobs runs on Amazon Web Services. Accounts and sign-in are handled by Amazon Cognito, your profile, jobs and
        messages are kept in Amazon DynamoDB, and pictures are stored in Amazon S3. Data is encrypted in transit and at
        rest.
      </p>
    ),
  },
  {
    title: 'Emails and Notifications',
    body: (
      <p>
        We email you verification and password reset codes. Job notifications are optional: you can choose the radius, a
        daily limit and quiet hours, or turn them off, in your notification settings.
      </p>
    ),
  },
  {
    title: 'Sharing Your Information',
    body: (
      <p>
        We do not sell your personal information. We share it only with the services that run OddJobs for us (Amazon Web
        Services and Stripe), with the other party of a job as described above, and when the law requires it.
      </p>
    ),
  },
  {
    title: 'Security',
    body: (
      <p>
        Passwords are never stored by us in readable form. Sign-in attempts and profile changes are rate-limited, attempts
        to change protected account fields are refused and logged, and only the admin team can review disputes. You can end
        every session of your account with Sign Out Everywhere on your <Link to="/profile">profile</Link>.
      </p>
    ),
  },
  {
    title: 'Keeping and Deleting Data',
    body: (
      <p>
        We keep your data while your account is open. When you ask us to delete your account, we remove or anonymize your
        personal data within 30 days. Records we must keep by law, such as payment records, are kept only as long as
        required. You can delete your account yourself on your profile page: your personal data is removed or anonymized at
        once, and a check 30 days later removes anything left behind.
      </p>
    ),
  },
  {
    title: 'Your Rights and Choices',
    body: (
      <p>
        You can see and correct your profile at any time on the profile page, change your notification settings, download
        a copy of your data there, or ask us for its deletion. We answer privacy enquiries within 30 days.
      </p>
    ),
  },
  {
    title: 'Children, Changes and Contact',
    body: (
      <>
        <p>
          OddJobs is only for people aged 18 or over, and we do not knowingly collect data about children. We may update
          this policy; the date at the top shows the latest version.
        </p>
        <p>
          Privacy questions and requests: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </>
    ),
  },
];

export default function PrivacyPolicyScreen() {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro={<p>This policy explains what we collect when you use OddJobs, why, and the choices you have.</p>}
      sections={SECTIONS}
      closing={
        <aside className="trust-box" aria-labelledby="trust-heading">
          <h2 id="trust-heading">{MSG.legal.yourTrustMatters}</h2>
          <p>
            We collect only what it takes to connect neighbours with local jobs and pay them safely. We never sell your data,
            and you stay in control of your profile, your location and your notifications.
          </p>
        </aside>
      }
    />
  );
}
