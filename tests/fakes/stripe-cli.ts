/**
 * `npm run fake:stripe` — the local Stripe (tests/fakes/stripe.ts) for trying card payments on a development
 * machine: start Atrium with `STRIPE_API_URL=http://127.0.0.1:12111`, then connect Stripe in Settings → Payments
 * with the secret key printed here. Nothing leaves the machine; no card is charged.
 */
import { startFakeStripe } from "./stripe";

const port = Number(process.env.FAKE_STRIPE_PORT ?? 12111);
const fake = await startFakeStripe({ port });
const key = fake.addAccount(process.env.FAKE_STRIPE_ACCOUNT ?? "Harbor Bakery");
console.log(`A local Stripe listens on ${fake.url}`);
console.log(`Start Atrium with STRIPE_API_URL=${fake.url} and connect Stripe with the secret key ${key}`);
process.on("SIGINT", () => void fake.close().then(() => process.exit(0)));
