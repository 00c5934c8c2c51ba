/**
 * What a custom domain's host name may be (ADR 024): one normal form for what an operator types, so the same
 * name is one row, one unique index entry and one Host match, whatever its case, trailing dot or script.
 */
import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { invalid } from "~/lib/errors";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The ASCII (punycode) lower-case form of `input`, or an `invalid` error saying what is wrong with it.
 * `ownHosts`: the deployment's own names (PUBLIC_URL's, AUTH_URL's): they and their subdomains are ours.
 */
export function normalizeHostname(input: string, ownHosts: readonly string[]): string {
  const refuse = (message: string) => invalid(message, [{ field: "hostname", message }]);
  let value = input.trim().toLowerCase();
  // A pasted address ("https://shop.example.com/") is forgiven; a path or port is not a host name.
  const pasted = /^https?:\/\/([^/?#]+)\/?$/.exec(value);
  if (pasted) value = pasted[1]!;
  value = value.replace(/\.$/, "");
  if (!value) throw refuse("Enter a domain such as shop.example.com");
  if (isIP(value) || isIP(value.replace(/^\[|\]$/g, ""))) {
    throw refuse("Enter a domain name, not an IP address: point the domain at this server with DNS instead");
  }
  if (/[\s/:@?#]/.test(value)) throw refuse("Enter only the domain, such as shop.example.com (no path or port)");
  // domainToASCII applies IDNA (UTS #46): "café.example" becomes "xn--caf-dma.example"; "" when invalid.
  const ascii = domainToASCII(value);
  if (!ascii) throw refuse(`${input.trim()} is not a valid domain name`);
  if (ascii.length > 253) throw refuse("A domain name has at most 253 characters");
  const labels = ascii.split(".");
  if (labels.length < 2) throw refuse("Enter the full domain, with its ending, such as example.com");
  if (labels.some((l) => l.length > 63)) throw refuse("Each part of a domain name has at most 63 characters");
  if (!labels.every((l) => LABEL.test(l))) {
    throw refuse("A domain name has letters, digits and hyphens between its dots, and no part starts or ends with -");
  }
  if (/^\d+$/.test(labels.at(-1)!)) throw refuse("A domain name does not end in a number");
  if (ascii === "localhost" || ascii.endsWith(".localhost")) throw refuse("localhost names cannot be connected");
  if (ownHosts.some((own) => ascii === own || ascii.endsWith(`.${own}`))) {
    throw refuse("That name belongs to this Atrium server itself; use a domain of your own");
  }
  return ascii;
}

/** Where the verification TXT record lives: beside the host, so a CNAME on the host itself does not hide it. */
export function txtNameOf(hostname: string): string {
  return `_atrium.${hostname}`;
}
