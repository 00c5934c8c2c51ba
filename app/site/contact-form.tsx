/**
 * PLACEHOLDER until H4's contact form is merged (the contract gives this file to H4; the lead keeps theirs).
 * `<ContactForm siteSlug heading? intro? />`: a plain form post to the customer API, no JavaScript.
 */
export function ContactForm({ siteSlug, heading, intro }: { siteSlug: string; heading?: string; intro?: string }) {
  return (
    <form className="contact-form" method="post" action={`/api/v1/contact?site=${encodeURIComponent(siteSlug)}`}>
      {heading ? <h2>{heading}</h2> : null}
      {intro ? <p>{intro}</p> : null}
      <div className="site-field">
        <label className="site-label" htmlFor="contact-name">
          Name
        </label>
        <input className="site-input" id="contact-name" name="name" autoComplete="name" required />
      </div>
      <div className="site-field">
        <label className="site-label" htmlFor="contact-email">
          E-mail
        </label>
        <input className="site-input" id="contact-email" name="email" type="email" autoComplete="email" required />
      </div>
      <div className="site-field">
        <label className="site-label" htmlFor="contact-message">
          Message
        </label>
        <textarea className="site-input" id="contact-message" name="message" rows={5} required />
      </div>
      <button className="site-button" type="submit">
        Send
      </button>
    </form>
  );
}
