/**
 * The unit a throttle counts a client address in (ADR 004, "Throttle"). An IPv4 address is one client. An IPv6
 * address is not: a home or a cloud server is routed a whole /64 (2^64 addresses) and picks any of them at
 * will, so counting per address would give one attacker an endless supply of fresh ones. Addresses in one /64
 * therefore count as one. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, how a dual-stack socket reports an
 * IPv4 client) counts as the IPv4 address it carries. Every throttle keyed by address uses this one rule:
 * sign-in, sign-up and failed bearer tokens.
 *
 * Written by hand rather than with ipaddr.js: that library is only a transitive dependency here (of Express's
 * proxy-addr), and expanding an address Node's `isIP` has already validated is a dozen lines.
 */
import { isIPv4, isIPv6 } from "node:net";

/** The 8 16-bit groups of a valid IPv6 address (without a zone), an embedded IPv4 tail included. */
function groupsOf(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -v4[1]!.length);
    // "::ffff:" leaves "::ffff:", "::" leaves "::": drop one trailing colon unless it ends a "::".
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const hex = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = hex(head);
  if (rest === undefined) return [...left, ...tail];
  const right = [...hex(rest), ...tail];
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The key a throttle counts `ip` under: the IPv4 address, or the IPv6 address's /64 prefix. */
export function addressKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (isIPv4(address)) return address;
  const withoutZone = address.replace(/%.*$/, "");
  if (!isIPv6(withoutZone)) return address;
  const groups = groupsOf(withoutZone);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
