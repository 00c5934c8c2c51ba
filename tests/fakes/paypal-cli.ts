/**
 * `npm run fake:paypal` — the local PayPal (tests/fakes/paypal.ts) for trying PayPal Checkout on a development
 * machine: start Atrium with the `PAYPAL_API_ADDRESS` and `PAYPAL_API_CA` printed here (Atrium's PayPal client then
 * sends PayPal's hosts to this port and trusts the test CA), and connect PayPal in Settings → Integrations → Payments
 * (sandbox), with the printed client id and secret and the id of the webhook added here. The buyer's approval page
 * opens on the second port; no money moves and nothing leaves the machine.
 *
 * Nothing is asked: the fake reads commands, one a line. A webhook is what an operator adds in PayPal's dashboard
 * (the SDK has no call for it), so it is added here:
 *   webhook <url>                 registers a webhook for the app at Atrium's address and prints its id
 *   refund <captureId> [value]    a refund made in PayPal's dashboard (all that is left, or `value`)
 * Ports: FAKE_PAYPAL_PORT (12113) for the API, FAKE_PAYPAL_APPROVAL_PORT (12114) for the buyer's pages.
 */
import { createInterface } from "node:readline";
import { startFakePayPal } from "./paypal";

const port = Number(process.env.FAKE_PAYPAL_PORT ?? 12113);
const approvalPort = Number(process.env.FAKE_PAYPAL_APPROVAL_PORT ?? 12114);
const fake = await startFakePayPal({ port, approvalPort });
const app = fake.addApp(process.env.FAKE_PAYPAL_APP ?? "Harbor Bakery");
console.log(`A local PayPal listens on https://${fake.address} (buyer's pages on ${fake.approvalUrl})`);
console.log(`Start Atrium with PAYPAL_API_ADDRESS=${fake.address} PAYPAL_API_CA=${fake.caFile}`);
console.log(`Connect PayPal (sandbox) with the client id ${app.clientId}`);
console.log(`                           and the secret ${app.clientSecret}`);
console.log("Then type: webhook <url>                for the app's webhook, at the address the payment settings show");
console.log("       or: refund <capture id> [value]  for a refund made in PayPal's dashboard");

const USAGE = "Usage: webhook <url>  |  refund <capture id> [value]";
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [command, target, value] = line.trim().split(/\s+/);
  if (command === "webhook" && target && URL.canParse(target))
    return console.log(`Webhook ${fake.addWebhook(app.clientId, target)} sends this app's events to ${target}`);
  if (command === "refund" && target)
    return void fake
      .dashboardRefund(target, value)
      .then(() => console.log(`Refunded ${value ?? "what was left of"} ${target}; PAYMENT.CAPTURE.REFUNDED sent`))
      .catch((error: unknown) => console.log(String(error)));
  console.log(USAGE);
});
process.on("SIGINT", () => void fake.close().then(() => process.exit(0)));
