// The site assistant's widget (issue 20, ADR 037), loaded as a fingerprinted file (CSP `script-src 'self'`, no inline
// code), only on the pages of a site that switched the assistant on. Progressive enhancement: without it the page
// has a "Questions? Ask us" link to the contact page; with it, that link opens a chat.
//
// It speaks the same protocol as AI SDK v5's `useChat` (a UI message stream over server-sent events) without
// shipping the SDK: a few kilobytes instead of a framework on every page of a small business's site. The answer's
// text, the pages it cites and the offer to pass the conversation to the team are what it renders.

const root = document.querySelector("[data-assistant-session]");
if (root instanceof HTMLElement) start(root);

/** @param {HTMLElement} root */
function start(root) {
  const sessionUrl = root.dataset.assistantSession ?? "";
  const greeting = root.dataset.assistantGreeting ?? "";
  const name = root.dataset.assistantName ?? "us";
  const storageKey = `atrium-assistant:${sessionUrl}`;

  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    node.append(...children);
    return node;
  };

  // The page's link becomes a button with the same icon and label (written once, in the page's markup).
  const link = root.querySelector(".site-assistant__launcher");
  const launcher = el(
    "button",
    {
      type: "button",
      class: "site-assistant__launcher",
      "aria-expanded": "false",
      "aria-controls": "site-assistant-panel",
    },
    ...(link ? Array.from(link.childNodes) : ["Questions? Ask us"]),
  );
  const log = el("ol", { class: "site-assistant__log", "aria-live": "polite", "aria-label": "Conversation" });
  const input = el("textarea", {
    id: "site-assistant-question",
    rows: "2",
    maxlength: "4000",
    placeholder: "Ask about opening hours, prices, bookings…",
  });
  const send = el("button", { type: "submit", class: "site-assistant__send" }, "Send");
  const status = el("p", { class: "site-assistant__status", role: "status" });
  const form = el(
    "form",
    { class: "site-assistant__form", onsubmit: (event) => (event.preventDefault(), ask()) },
    el("label", { for: "site-assistant-question", class: "visually-hidden" }, "Your question"),
    input,
    send,
  );
  const handoffButton = el(
    "button",
    { type: "button", class: "site-assistant__handoff-open", onclick: () => void openHandoff() },
    "Pass to the team",
  );
  const handoff = el("div", { class: "site-assistant__handoff", hidden: "" });
  const foot = el("p", { class: "site-assistant__foot" }, "Answers come from this site's pages. ", handoffButton);
  const panel = el(
    "div",
    {
      id: "site-assistant-panel",
      class: "site-assistant__panel",
      role: "dialog",
      "aria-label": `Ask ${name}`,
      hidden: "",
    },
    el(
      "header",
      { class: "site-assistant__header" },
      el("p", { class: "site-assistant__title" }, `Ask ${name}`),
      el(
        "button",
        { type: "button", class: "site-assistant__close", "aria-label": "Close", onclick: () => toggle(false) },
        "×",
      ),
    ),
    log,
    status,
    handoff,
    form,
    foot,
  );
  root.replaceChildren(launcher, panel);
  launcher.addEventListener("click", () => toggle(panel.hidden));
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      ask();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) toggle(false);
  });

  /** @type {string | null} */
  let conversation = sessionStorage.getItem(storageKey);
  let opened = false;
  let busy = false;
  /** A signed-in customer's hand-over needs no address: the team answers the one on their account. */
  let signedIn = false;

  function toggle(open) {
    panel.hidden = !open;
    launcher.setAttribute("aria-expanded", String(open));
    root.classList.toggle("site-assistant--open", open);
    if (open) {
      if (!opened) restore();
      input.focus();
    } else launcher.focus();
  }

  function bubble(role) {
    const item = el("li", { class: `site-assistant__message site-assistant__message--${role}` });
    log.append(item);
    return item;
  }

  /**
   * Follows a new answer down the log, but never past its question: a long answer is read from its start, with
   * the question above it (a short one simply sits at the bottom — the browser stops the scroll there).
   */
  function follow(question) {
    log.scrollTop += question.getBoundingClientRect().top - log.getBoundingClientRect().top - 12;
  }

  function say(role, text) {
    const item = bubble(role);
    item.append(el("p", {}, text));
    log.scrollTop = log.scrollHeight;
    return item;
  }

  function sources(item, list) {
    if (list.length === 0) return;
    const links = el("ul", { class: "site-assistant__sources", "aria-label": "Sources" });
    for (const s of list) links.append(el("li", {}, el("a", { href: s.url }, s.title || s.url)));
    item.append(links);
  }

  async function problem(response) {
    try {
      const body = await response.json();
      return body.message || "Something went wrong. Please try again.";
    } catch {
      return "Something went wrong. Please try again.";
    }
  }

  /** Shows the stored conversation again (this tab opened it before), or the greeting. */
  async function restore() {
    opened = true;
    if (conversation) {
      const response = await fetch(`${sessionUrl}/${conversation}`, { credentials: "same-origin" });
      if (response.ok) {
        const body = await response.json();
        signedIn = body.signedIn;
        say("assistant", body.greeting);
        for (const message of body.messages) {
          const item = bubble(message.role === "user" ? "user" : "assistant");
          const text = message.parts
            .filter((p) => p.type === "text")
            .map((p) => p.text)
            .join("\n");
          if (text) item.append(el("p", {}, text));
          sources(
            item,
            message.parts.filter((p) => p.type === "source-url"),
          );
        }
        log.scrollTop = log.scrollHeight;
        return;
      }
      conversation = null;
      sessionStorage.removeItem(storageKey);
    }
    say("assistant", greeting);
  }

  async function open() {
    if (conversation) return conversation;
    const response = await fetch(sessionUrl, { method: "POST", credentials: "same-origin" });
    if (!response.ok) throw new Error(await problem(response));
    const body = await response.json();
    conversation = body.id;
    signedIn = body.signedIn;
    sessionStorage.setItem(storageKey, conversation);
    return conversation;
  }

  async function ask() {
    const text = input.value.trim();
    if (!text || busy) return;
    busy = true;
    send.disabled = true;
    status.textContent = "Thinking…";
    const question = say("user", text);
    input.value = "";
    const answer = bubble("assistant");
    const paragraph = el("p", {});
    answer.append(paragraph);
    try {
      const id = await open();
      const response = await fetch(`${sessionUrl}/${id}/messages`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          messages: [
            {
              id: `m${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`,
              role: "user",
              parts: [{ type: "text", text }],
            },
          ],
          trigger: "submit-message",
        }),
      });
      if (!response.ok || !response.body) throw new Error(await problem(response));
      const cited = [];
      await readStream(response.body, (chunk) => {
        if (chunk.type === "text-delta") paragraph.textContent += chunk.delta;
        else if (chunk.type === "source-url") cited.push({ url: chunk.url, title: chunk.title });
        else if (chunk.type === "tool-input-available" && chunk.toolName === "hand_over")
          handoffButton.classList.add("site-assistant__handoff-open--offered");
        else if (chunk.type === "error") throw new Error(chunk.errorText);
        follow(question);
      });
      sources(answer, cited);
      status.textContent = "";
      follow(question);
    } catch (error) {
      answer.remove();
      status.textContent = error instanceof Error ? error.message : "Something went wrong. Please try again.";
    } finally {
      busy = false;
      send.disabled = false;
    }
  }

  /** Server-sent events of JSON chunks, ending with `[DONE]` (AI SDK v5's UI message stream). */
  async function readStream(body, onChunk) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of frame.split("\n")) {
          if (!line.startsWith("data: ")) continue;
          const data = line.slice(6);
          if (data === "[DONE]") return;
          onChunk(JSON.parse(data));
        }
      }
    }
  }

  async function openHandoff() {
    // The conversation (and whether the visitor is signed in) first: a customer is not asked for an address.
    try {
      await open();
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : "Something went wrong. Please try again.";
      return;
    }
    // While the visitor writes to the team, the question box and the offer make way for the form.
    handoff.hidden = false;
    form.hidden = true;
    foot.hidden = true;
    handoff.replaceChildren(
      el(
        "form",
        { class: "site-assistant__handoff-form", onsubmit: (event) => (event.preventDefault(), passOn(event.target)) },
        el("p", {}, `The ${name} team will read this conversation and answer you by e-mail.`),
        ...(signedIn
          ? []
          : [
              el("label", { for: "site-assistant-email" }, "Your e-mail address"),
              el("input", {
                id: "site-assistant-email",
                name: "email",
                type: "email",
                autocomplete: "email",
                required: "",
              }),
            ]),
        el("label", { for: "site-assistant-note" }, "Anything to add? (optional)"),
        el("textarea", { id: "site-assistant-note", name: "message", rows: "2", maxlength: "2000" }),
        el(
          "div",
          { class: "site-assistant__handoff-actions" },
          el("button", { type: "submit", class: "site-assistant__handoff-send" }, "Send to the team"),
          el(
            "button",
            { type: "button", class: "site-assistant__handoff-cancel", onclick: () => closeHandoff(handoffButton) },
            "Cancel",
          ),
        ),
      ),
    );
    log.scrollTop = log.scrollHeight;
    (handoff.querySelector("input") ?? handoff.querySelector("textarea"))?.focus();
  }

  /** Back to the questions; `focus` is where the visitor carries on. */
  function closeHandoff(focus) {
    handoff.hidden = true;
    form.hidden = false;
    foot.hidden = false;
    status.textContent = "";
    focus.focus();
  }

  async function passOn(handoffForm) {
    const data = new FormData(handoffForm);
    const body = {};
    for (const key of ["email", "message"]) {
      const value = String(data.get(key) ?? "").trim();
      if (value) body[key] = value;
    }
    status.textContent = "Sending…";
    try {
      const id = await open();
      const response = await fetch(`${sessionUrl}/${id}/handoff`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        const answer = await response.json().catch(() => ({}));
        const field = answer.issues?.[0]?.message;
        throw new Error(field || answer.message || "Something went wrong. Please try again.");
      }
      const { ticket } = await response.json();
      // The form (and the button that had focus) is gone: focus moves to the confirmation, so it is read out.
      const done = el(
        "p",
        { class: "site-assistant__done", tabindex: "-1" },
        `Sent to the team as request #${ticket.number}. They will answer you by e-mail.`,
      );
      handoff.replaceChildren(done);
      // The conversation is with the team now: the offer to pass it on goes; questions can still be asked.
      handoffButton.hidden = true;
      form.hidden = false;
      foot.hidden = false;
      status.textContent = "";
      log.scrollTop = log.scrollHeight;
      done.focus();
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : "Something went wrong. Please try again.";
    }
  }
}
