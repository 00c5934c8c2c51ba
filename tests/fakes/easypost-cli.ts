/**
 * `npm run fake:easypost` — the local EasyPost (tests/fakes/easypost.ts) for trying labels and tracking on a
 * development machine: start Atrium with the `EASYPOST_API_URL` printed here, connect EasyPost in Settings →
 * Shipping labels with the printed key, buy a label on an order, then type `track <tracking number> <status>` here (in_transit,
 * out_for_delivery, delivered, failure…) to move the parcel along. Nothing leaves the machine.
 */
import { createInterface } from "node:readline";
import { startFakeEasyPost } from "./easypost";

const port = Number(process.env.FAKE_EASYPOST_PORT ?? 12112);
const fake = await startFakeEasyPost({ port });
const key = fake.addAccount(process.env.FAKE_EASYPOST_ACCOUNT ?? "Harbor Bakery");
console.log(`A local EasyPost listens on ${fake.url}`);
console.log(`Start Atrium with EASYPOST_API_URL=${fake.url} and connect EasyPost with the API key ${key}`);
console.log("Then type: track <tracking number> <status>   (the number is on the order's package)");
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [command, tracker, status] = line.trim().split(/\s+/);
  if (command !== "track" || !tracker || !status) return console.log("Usage: track <tracking number> <status>");
  fake
    .track(tracker, status as Parameters<typeof fake.track>[1])
    .then((sent) => console.log(`Sent ${sent.length} event(s): ${tracker} is ${status}`))
    .catch((error: unknown) => console.log(String(error)));
});
process.on("SIGINT", () => void fake.close().then(() => process.exit(0)));
