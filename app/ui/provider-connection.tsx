// A provider's connection on a settings page (Stripe, PayPal, EasyPost): its state, the account it answered as,
// what it said, where its events come, and "Check connection" / "Disconnect" (confirmed first). The connect form
// itself is the page's own, as each provider asks for different keys.
import type { ReactNode } from "react";
import { Form } from "@remix-run/react";
import { ConfirmForm } from "./confirm-form";

export function ProviderConnection(props: {
  name: string;
  /** `{provider}-check` and `{provider}-disconnect` are the page's form intents. */
  intent: string;
  status: string;
  accountName: string;
  account: string | null;
  detail: string;
  /** Where the provider's events arrive, and how they were set up. */
  events: ReactNode;
  disconnectWarning: string;
}) {
  return (
    <>
      <p>
        <span className={`status-pill status-pill--${props.status === "connected" ? "active" : "archived"}`}>
          {props.status === "connected"
            ? "Connected"
            : props.status === "deauthorized"
              ? `Disconnected in ${props.name}`
              : "Needs attention"}
        </span>{" "}
        <strong>{props.accountName}</strong> {props.account ? <span className="hint">{props.account}</span> : null}
      </p>
      <p className="hint">{props.detail}</p>
      <p className="hint">{props.events}</p>
      <div className="page-actions">
        <Form method="post">
          <input type="hidden" name="intent" value={`${props.intent}-check`} />
          <button type="submit" className="secondary">
            Check connection
          </button>
        </Form>
        <ConfirmForm
          confirm={`Disconnect ${props.name}? ${props.disconnectWarning}`}
          fields={{ intent: `${props.intent}-disconnect` }}
        >
          <button type="submit" className="danger">
            Disconnect {props.name}
          </button>
        </ConfirmForm>
      </div>
    </>
  );
}
