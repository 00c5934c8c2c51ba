/**
 * An integrator's chat page, as the AI SDK v5 docs write one (test fixture for tests/e2e/chat-usechat.test.ts):
 * the unmodified `useChat` from `@ai-sdk/react` with a `DefaultChatTransport` pointed at Atrium's
 * `/api/chat/v5` from another origin. Where to call and with which key come from the page's JSON config. The test
 * bundles this file with esbuild into a temp folder; nothing built from it is committed.
 */
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { useState, type FormEvent } from "react";
import { createRoot } from "react-dom/client";

interface Config {
  /** Atrium's chat endpoint (absolute: another origin). */
  api: string;
  key: string;
  workspace: string;
}

const config = JSON.parse(document.getElementById("config")?.textContent ?? "{}") as Config;

function Part({ part }: { part: UIMessage["parts"][number] }) {
  if (part.type === "text") return <p className="text">{part.text}</p>;
  if (part.type === "source-url")
    return (
      <p className="source">
        Source: <a href={part.url}>{part.title ?? part.url}</a>
      </p>
    );
  if (part.type.startsWith("tool-")) {
    const name = part.type.slice("tool-".length);
    const state = "state" in part ? String(part.state) : "";
    return (
      <span className="tool" data-tool={name} data-state={state}>
        {name} · {state}
      </span>
    );
  }
  return null;
}

function App() {
  // One transport for the page's life, as the SDK's examples keep it.
  const [transport] = useState(
    () =>
      new DefaultChatTransport({
        api: config.api,
        headers: { Authorization: `Bearer ${config.key}` },
        body: { workspace: config.workspace },
      }),
  );
  const { id, messages, sendMessage, regenerate, status, error } = useChat({ transport });
  const [input, setInput] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim()) return;
    void sendMessage({ text: input });
    setInput("");
  };

  return (
    <main data-chat-id={id} data-status={status} data-error={error === undefined ? "undefined" : error.message}>
      <h1>Ask Harbor Bakery</h1>
      <ol className="messages" aria-label="Conversation">
        {messages.map((message) => (
          <li key={message.id} className={`message ${message.role}`} data-role={message.role} data-id={message.id}>
            <strong>{message.role === "user" ? "You" : "Assistant"}</strong>
            {message.parts.map((part, i) => (
              <Part key={i} part={part} />
            ))}
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <label htmlFor="question">Question</label>
        <input id="question" value={input} onChange={(e) => setInput(e.target.value)} autoComplete="off" />
        <button type="submit" disabled={status !== "ready" && status !== "error"}>
          Send
        </button>
      </form>
      {messages.length > 0 && status === "ready" && (
        <button type="button" onClick={() => void regenerate()}>
          Regenerate
        </button>
      )}
      <p className="status" aria-live="polite">
        {status}
      </p>
    </main>
  );
}

createRoot(document.getElementById("root")!).render(<App />);
