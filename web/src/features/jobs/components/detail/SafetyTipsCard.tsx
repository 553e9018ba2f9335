const SAFETY_TIPS = [
  'Meet in a public place when possible',
  'Verify the identity of the person you are meeting',
  'Discuss payment terms before starting the work',
  'Trust your instincts: if something feels wrong, walk away',
  'Share the job details with someone you trust',
];

export function SafetyTipsCard() {
  return (
    <section className="card" aria-labelledby="safety-heading">
      <h2 id="safety-heading">Safety Tips</h2>
      <ul className="bullets">
        {SAFETY_TIPS.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </section>
  );
}
