/**
 * The frame of every public page: the theme stylesheet, skip link, header (logo, name, navigation that
 * collapses into a `<details>` menu on phones, no JavaScript), the page, and the footer (visit, contact,
 * opening hours and their coming exceptions, footer and policy links, copyright), plus the site's structured
 * data. Used by the `$site` layout and by its error boundary, so a missing page still looks like the site.
 */
import type { ReactNode } from "react";
import type { ChromeLink, SiteChrome } from "./chrome";
import assistantJs from "./assistant-widget.js?url&no-inline";

function NavList({ links, className }: { links: ChromeLink[]; className: string }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.href}>
          <a href={link.href}>{link.label}</a>
        </li>
      ))}
    </ul>
  );
}

/** JSON-LD as a data block: `<` is escaped so no text in it can close the script element. */
function JsonLd({ data }: { data: object }) {
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
    />
  );
}

export function SiteFrame({ chrome, children }: { chrome: SiteChrome; children: ReactNode }) {
  const { name, base, logo, navigation, footerLinks, policies, profile } = chrome;
  // A wide logo is a wordmark that already says the name: shown alone (named by its alt text). A square one is
  // a mark, shown beside the name.
  const wordmark = !!logo?.width && !!logo.height && logo.width / logo.height >= 2.2;
  const telHref = profile.phone ? `tel:${profile.phone.replace(/[^+0-9]/g, "")}` : null;
  const hasVisit = profile.addressLines.length > 0 || profile.phone || profile.email;
  return (
    <div className="site">
      <link rel="stylesheet" href={chrome.themeHref} />
      <a className="site-skip" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-container site-header__inner">
          <a className={wordmark ? "site-brand site-brand--wordmark" : "site-brand"} href={base || "/"}>
            {logo ? (
              <img
                className="site-brand__logo"
                src={logo.src}
                srcSet={logo.srcSet}
                sizes={logo.srcSet ? "240px" : undefined}
                width={logo.width ?? undefined}
                height={logo.height ?? undefined}
                alt={wordmark ? name : ""}
              />
            ) : null}
            {wordmark ? null : <span className="site-brand__name">{name}</span>}
          </a>
          {navigation.length > 0 ? (
            <nav className="site-nav" aria-label="Main">
              <NavList links={navigation} className="site-nav__list" />
              <details className="site-nav__menu">
                <summary className="site-nav__toggle">Menu</summary>
                <NavList links={navigation} className="site-nav__panel" />
              </details>
            </nav>
          ) : null}
          {chrome.shop && chrome.portal ? (
            <a className="site-header__account site-header__cart" href={`${base}/cart`}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path
                  d="M7 7V6a5 5 0 0 1 10 0v1h3a1 1 0 0 1 1 1.1l-1.2 11.2A3 3 0 0 1 16.8 22H7.2a3 3 0 0 1-3-2.7L3 8.1A1 1 0 0 1 4 7h3Zm2 0h6V6a3 3 0 0 0-6 0v1Z"
                  fill="currentColor"
                />
              </svg>
              <span>Cart</span>
              {chrome.cartCount ? (
                <span className="site-header__count">
                  {chrome.cartCount}
                  <span className="visually-hidden"> {chrome.cartCount === 1 ? "item" : "items"}</span>
                </span>
              ) : null}
            </a>
          ) : null}
          {chrome.portal ? (
            <a className="site-header__account" href={`${base}/account`}>
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <path
                  d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0 2c-4.42 0-8 2.24-8 5v1a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-1c0-2.76-3.58-5-8-5Z"
                  fill="currentColor"
                />
              </svg>
              <span>Account</span>
            </a>
          ) : null}
        </div>
      </header>
      <main id="content" className="site-main">
        {children}
      </main>
      <footer className="site-footer">
        <div className="site-container site-footer__grid">
          <section className="site-footer__about" aria-label={`About ${name}`}>
            <p className="site-footer__name">{name}</p>
            {profile.tagline ? <p className="site-footer__tagline">{profile.tagline}</p> : null}
          </section>
          {hasVisit ? (
            <section aria-labelledby="site-footer-visit">
              <h2 id="site-footer-visit" className="site-footer__heading">
                Visit &amp; contact
              </h2>
              {profile.addressLines.length > 0 ? (
                <address className="site-footer__address">
                  {profile.addressLines.map((line) => (
                    <span key={line}>{line}</span>
                  ))}
                </address>
              ) : null}
              <ul className="site-footer__contact">
                {telHref ? (
                  <li>
                    <a href={telHref}>{profile.phone}</a>
                  </li>
                ) : null}
                {profile.email ? (
                  <li>
                    <a href={`mailto:${profile.email}`}>{profile.email}</a>
                  </li>
                ) : null}
              </ul>
            </section>
          ) : null}
          {profile.hours.length > 0 ? (
            <section aria-labelledby="site-footer-hours">
              <h2 id="site-footer-hours" className="site-footer__heading">
                Opening hours
              </h2>
              <dl className="site-hours">
                {profile.hours.map((line) => (
                  <div key={line.days} className="site-hours__row">
                    <dt>{line.days}</dt>
                    <dd>{line.hours}</dd>
                  </div>
                ))}
              </dl>
              {profile.exceptions.length > 0 ? (
                <>
                  <p className="site-footer__subheading">Coming up</p>
                  <dl className="site-hours site-hours--exceptions">
                    {profile.exceptions.map((e) => (
                      <div key={e.date} className="site-hours__row">
                        <dt>
                          {e.label}
                          {e.note ? <span className="site-hours__note"> · {e.note}</span> : null}
                        </dt>
                        <dd>{e.hours}</dd>
                      </div>
                    ))}
                  </dl>
                </>
              ) : null}
            </section>
          ) : null}
        </div>
        <div className="site-container site-footer__bottom">
          {footerLinks.length > 0 || policies.length > 0 ? (
            <nav aria-label="Footer">
              <ul className="site-footer__links">
                {[...footerLinks, ...policies].map((link) => (
                  <li key={link.href}>
                    <a href={link.href}>{link.label}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <p className="site-footer__copyright">
            © {chrome.year} {name}
          </p>
        </div>
      </footer>
      {chrome.jsonLd.map((data, i) => (
        <JsonLd key={i} data={data} />
      ))}
      {chrome.assistant ? <AssistantWidget chrome={chrome} assistant={chrome.assistant} /> : null}
    </div>
  );
}

/**
 * The site assistant's place on the page (ADR 037). Without JavaScript it is a link to the contact page; its script
 * (a fingerprinted file: the page allows `script-src 'self'`, no inline code, so it stays the same for everyone and
 * cacheable) turns it into the chat.
 */
function AssistantWidget({
  chrome,
  assistant,
}: {
  chrome: SiteChrome;
  assistant: NonNullable<SiteChrome["assistant"]>;
}) {
  return (
    <>
      <aside
        className="site-assistant"
        aria-label={`Ask ${chrome.name}`}
        data-assistant-session={assistant.session}
        data-assistant-greeting={assistant.greeting}
        data-assistant-name={chrome.name}
      >
        {/* The script moves these children into its button: the icon and the label are written once, here. */}
        <a className="site-assistant__launcher" href={`${chrome.base}/contact`}>
          <svg className="site-assistant__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M5 3.5h14A2.5 2.5 0 0 1 21.5 6v9a2.5 2.5 0 0 1-2.5 2.5h-7.2L7 21.2v-3.7H5A2.5 2.5 0 0 1 2.5 15V6A2.5 2.5 0 0 1 5 3.5Z" />
          </svg>
          <span className="site-assistant__label">Questions? Ask us</span>
        </a>
      </aside>
      <script type="module" src={assistantJs} />
    </>
  );
}
