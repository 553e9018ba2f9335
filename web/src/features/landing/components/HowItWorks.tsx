import { MSG } from '../../../../../shared/messages';

const FOR_WORKERS = [
  { title: MSG.landing.signUpTime, text: 'Create a free account with your name and email. No CV, no interview.' },
  { title: 'Find jobs near you', text: 'Browse open jobs by category or search, and apply with a short message.' },
  { title: 'Do the work, get paid', text: 'When the poster confirms the job is done, your payment is released the same day.' },
] as const;

const FOR_POSTERS = [
  { title: MSG.landing.postTime, text: 'Describe the task, the date, and the fixed price you will pay.' },
  { title: 'Choose your worker', text: 'Review applicants with their ratings and skills, message them, and accept one.' },
  { title: 'Pay when it is done', text: 'You pay upfront to secure the worker; the money is released to them when the work is complete.' },
] as const;

function Steps({ id, title, steps }: { id: string; title: string; steps: ReadonlyArray<{ title: string; text: string }> }) {
  return (
    <div className="steps">
      <h3 id={id}>{title}</h3>
      <ol className="steps__list" aria-labelledby={id}>
        {steps.map((step) => (
          <li key={step.title} className="steps__item">
            <p className="steps__title">{step.title}</p>
            <p className="steps__text">{step.text}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The three steps for each side of the marketplace. */
export function HowItWorks() {
  return (
    <section className="section" aria-labelledby="how-heading">
      <div className="section__inner">
        <h2 id="how-heading">How It Works</h2>
        <div className="how-it-works">
          <Steps id="how-workers" title="For workers" steps={FOR_WORKERS} />
          <Steps id="how-posters" title="For job posters" steps={FOR_POSTERS} />
        </div>
      </div>
    </section>
  );
}
