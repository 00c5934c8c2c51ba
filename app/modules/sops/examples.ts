/**
 * Ready-to-paste signing examples, shown with a new trigger secret in the console. The README's "Triggering
 * a SOP" carries the same two programs with environment variables, and a test runs the README's.
 */
export interface ExampleValues {
  /** The trigger URL, e.g. https://atrium.example/api/sops/new-order/trigger */
  url: string;
  secret: string;
}

export function curlExample({ url, secret }: ExampleValues): string {
  return `SOP_SECRET='${secret}'
BODY='{"input":{"email":"ada@example.com","name":"Ada"}}'
TS=$(date +%s)
SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$SOP_SECRET" | sed 's/^.* //')
curl -sS -X POST '${url}' \\
  -H 'Content-Type: application/json' \\
  -H "X-SOP-Timestamp: $TS" \\
  -H "X-SOP-Signature: sha256=$SIG" \\
  --data-raw "$BODY"`;
}

export function nodeExample({ url, secret }: ExampleValues): string {
  return `import { createHmac } from "node:crypto";

const secret = process.env.SOP_SECRET ?? "${secret}";
const body = JSON.stringify({ input: { email: "ada@example.com", name: "Ada" } });
const timestamp = Math.floor(Date.now() / 1000).toString();
const signature = "sha256=" + createHmac("sha256", secret).update(\`\${timestamp}.\${body}\`).digest("hex");

const response = await fetch("${url}", {
  method: "POST",
  headers: { "Content-Type": "application/json", "X-SOP-Timestamp": timestamp, "X-SOP-Signature": signature },
  body,
});
console.log(response.status, await response.json());`;
}
