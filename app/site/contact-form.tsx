/**
 * The contact form of a public site: on the contact page and in pages' contact-form blocks. A plain HTML form
 * posting to `POST /api/v1/contact?site={slug}` — it works without JavaScript (public pages ship none) and the
 * site is named in the address, never in the body (ADR 005). The outcome comes back in the contact page's
 * query (`state`); a block elsewhere shows the empty form.
 */
import { useId } from "react";
import "~/styles/site-contact.css";
import { CONTACT_FIELD_ERRORS, CONTACT_HONEYPOT, type ContactField, type ContactFormState } from "./contact-form-state";

export interface ContactFormProps {
  siteSlug: string;
  heading?: string;
  intro?: string;
  /** What the last post answered (the contact page passes its query's); absent in a page's block. */
  state?: ContactFormState;
  /** The site's privacy policy, when it is published: linked beside the button. */
  privacyHref?: string;
}

const NO_STATE: ContactFormState = { sent: false, fields: [] };

export function ContactForm({ siteSlug, heading, intro, state = NO_STATE, privacyHref }: ContactFormProps) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const refused = (field: ContactField) => state.fields.includes(field);

  const field = (name: ContactField, label: string, input: (props: Record<string, unknown>) => JSX.Element) => {
    const errorId = `${fieldId(name)}-error`;
    return (
      <div className="site-field">
        <label className="site-label" htmlFor={fieldId(name)}>
          {label}
        </label>
        {input({
          id: fieldId(name),
          name,
          required: true,
          className: "site-input",
          "aria-invalid": refused(name) ? true : undefined,
          "aria-describedby": refused(name) ? errorId : undefined,
        })}
        {refused(name) ? (
          <p className="site-error" id={errorId}>
            {CONTACT_FIELD_ERRORS[name]}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <section className="site-contact" aria-labelledby={`${id}-heading`} id="contact-form">
      <h2 id={`${id}-heading`} className="site-contact-heading">
        {heading || "Send us a message"}
      </h2>
      {intro ? <p className="site-contact-intro">{intro}</p> : null}

      {state.sent ? (
        <p className="site-contact-notice site-contact-notice--sent" role="status">
          <strong>Thank you — your message has been sent.</strong> We will reply to the e-mail address you gave.
        </p>
      ) : null}
      {state.error === "invalid" ? (
        <p className="site-contact-notice site-contact-notice--error" role="alert">
          Your message was not sent: please check the fields marked below and send it again.
        </p>
      ) : null}
      {state.error === "rate-limited" ? (
        <p className="site-contact-notice site-contact-notice--error" role="alert">
          Your message was not sent: we have received several messages from your connection in a short time. Please try
          again in an hour.
        </p>
      ) : null}

      <form method="post" action={`/api/v1/contact?site=${encodeURIComponent(siteSlug)}`} className="site-contact-form">
        <div className="site-contact-row">
          {field("name", "Your name", (props) => (
            <input {...props} type="text" autoComplete="name" maxLength={120} />
          ))}
          {field("email", "E-mail address", (props) => (
            <input {...props} type="email" autoComplete="email" maxLength={254} />
          ))}
        </div>
        {field("message", "Your message", (props) => (
          <textarea {...props} rows={6} maxLength={5000} />
        ))}
        {/* A trap for robots: hidden by the stylesheet, so people never see or fill it. */}
        <div className="site-contact-trap">
          <label htmlFor={fieldId(CONTACT_HONEYPOT)}>Leave this field empty</label>
          <input id={fieldId(CONTACT_HONEYPOT)} name={CONTACT_HONEYPOT} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <div className="site-contact-actions">
          <button type="submit" className="site-button">
            Send message
          </button>
          <p className="site-contact-note">
            We use your name and e-mail address only to answer you.
            {privacyHref ? (
              <>
                {" "}
                <a href={privacyHref}>Privacy policy</a>
              </>
            ) : null}
          </p>
        </div>
      </form>
    </section>
  );
}
