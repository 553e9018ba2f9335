const TESTIMONIALS = [
  {
    quote: 'I pick up two or three moving jobs a week between classes. The pay lands the same day, which makes rent a lot less stressful.',
    name: 'Jordan M.',
    detail: 'Worker, Austin',
  },
  {
    quote: 'Our flat-pack wardrobe sat in boxes for a month. I posted it on a Tuesday morning and it was built by the evening.',
    name: 'Priya S.',
    detail: 'Job poster, Round Rock',
  },
  {
    quote: 'Yard work used to be my weekend side hustle by word of mouth. Now the jobs come to me, and the ratings bring repeat customers.',
    name: 'Luis R.',
    detail: 'Worker, Pflugerville',
  },
] as const;

export function Testimonials() {
  return (
    <section className="section" aria-labelledby="testimonials-heading">
      <div className="section__inner">
        <h2 id="testimonials-heading">What Our Community Says</h2>
        <ul className="testimonials">
          {TESTIMONIALS.map((testimonial) => (
            <li key={testimonial.name}>
              <figure className="testimonial">
                <blockquote className="testimonial__quote">
                  <p>{testimonial.quote}</p>
                </blockquote>
                <figcaption className="testimonial__author">
                  <span className="testimonial__name">{testimonial.name}</span>
                  <span className="testimonial__detail">{testimonial.detail}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
