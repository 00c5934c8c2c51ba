// The booking pages' one script (ADR 036), loaded as a fingerprinted file (CSP `script-src 'self'`, no inline
// code). Progressive enhancement only: without it the times read in the business's zone, named on the page,
// and "Show times in" changes it. With it a visitor sees their own zone's times at once.
const zone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
})();

const here = new URL(window.location.href);
const shown = document.querySelector("[data-booking-zone]");
// Only when the visitor has not chosen a zone (`tz` in the address): a choice of theirs always wins, and the
// reload cannot repeat (the new address carries `tz`).
if (zone && shown && !here.searchParams.has("tz") && shown.getAttribute("data-booking-zone") !== zone) {
  here.searchParams.set("tz", zone);
  window.location.replace(here.toString());
} else if (zone) {
  // The services list: each "Choose a time" opens the picker in the visitor's zone.
  for (const link of document.querySelectorAll("a[data-booking-link]")) {
    const target = new URL(link.getAttribute("href") ?? "", window.location.href);
    if (!target.searchParams.has("tz")) {
      target.searchParams.set("tz", zone);
      link.setAttribute("href", target.pathname + target.search);
    }
  }
  // "Show times in" applies as soon as it is changed.
  const select = document.querySelector("select[data-zone-select]");
  if (select instanceof HTMLSelectElement && select.form) {
    select.addEventListener("change", () => select.form?.requestSubmit());
  }
}
