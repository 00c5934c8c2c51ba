/**
 * The DNS side of a custom domain's verification (ADR 024): two checks, each with findings a user can act on.
 * Ownership: the TXT record `_atrium.{host}` holds the claim's token. Pointing: the host's CNAME names this
 * deployment, or its A/AAAA addresses are this deployment's. Both through `node:dns`'s `Resolver`, pointed at
 * `DNS_SERVERS` (tests run a local DNS server there), so the code path is the one production runs.
 */
import { Resolver } from "node:dns/promises";
import { txtNameOf } from "./hostname.server";

export type DiagnosticCode =
  | "txt-ok"
  | "txt-missing"
  | "txt-mismatch"
  | "pointing-ok"
  | "not-pointing"
  | "pointing-unknown"
  | "domain-not-found"
  | "claimed-elsewhere"
  | "dns-unreachable";

export interface DnsRecord {
  type: "TXT" | "CNAME" | "A" | "AAAA";
  name: string;
  value: string;
}

export interface DomainDiagnostic {
  code: DiagnosticCode;
  ok: boolean;
  message: string;
  /** The record that fixes it (or that was found correct). */
  record?: DnsRecord;
  /** What DNS answered instead, when that helps (the wrong TXT values, the addresses the host has). */
  found?: string[];
}

/** Where custom domains must point: a CNAME target and/or the addresses A/AAAA records may hold. */
export interface PointingTarget {
  /** Host name a CNAME must name (DOMAIN_CNAME_TARGET, else PUBLIC_URL's host); null when not known. */
  cname: string | null;
  /** Configured addresses (DOMAIN_TARGET_ADDRESSES); when empty, what `cname` resolves to at check time. */
  addresses: readonly string[];
}

export interface DnsCheckResult {
  ownership: boolean;
  pointing: boolean;
  /** The resolver did not answer: no verdict, nothing about the domain should change. */
  unreachable: boolean;
  diagnostics: DomainDiagnostic[];
}

export interface DnsOptions {
  servers: readonly string[];
  timeoutMs: number;
}

/** The records a user creates for `hostname`: the TXT proof and how to point the name here. */
export function recordsFor(hostname: string, token: string, target: PointingTarget): DnsRecord[] {
  const txt: DnsRecord = { type: "TXT", name: txtNameOf(hostname), value: token };
  // An apex name (example.com) cannot hold a CNAME beside its other records: offer addresses when known.
  const apex = hostname.split(".").length === 2;
  if ((apex || !target.cname) && target.addresses.length) {
    return [
      txt,
      ...target.addresses.map((a): DnsRecord => ({ type: a.includes(":") ? "AAAA" : "A", name: hostname, value: a })),
    ];
  }
  return target.cname ? [txt, { type: "CNAME", name: hostname, value: target.cname }] : [txt];
}

type Answer<T> = { ok: true; value: T } | { ok: false; code: "nxdomain" | "nodata" | "unreachable" };

const NO_NAME = new Set(["ENOTFOUND"]);
const NO_DATA = new Set(["ENODATA"]);

async function ask<T>(query: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, value: await query() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (NO_NAME.has(code)) return { ok: false, code: "nxdomain" };
    if (NO_DATA.has(code)) return { ok: false, code: "nodata" };
    // ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED…: the resolver gave no verdict on the name.
    return { ok: false, code: "unreachable" };
  }
}

function resolverOf(options: DnsOptions): Resolver {
  // tries: 2 so one lost UDP packet is not reported as "unreachable"; timeout applies to each try.
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 2 });
  if (options.servers.length) resolver.setServers([...options.servers]);
  return resolver;
}

const sameName = (a: string, b: string) => a.toLowerCase().replace(/\.$/, "") === b.toLowerCase().replace(/\.$/, "");

/** Runs both checks for `hostname` against its claim's `token`. */
export async function checkDns(
  hostname: string,
  token: string,
  target: PointingTarget,
  options: DnsOptions,
): Promise<DnsCheckResult> {
  const resolver = resolverOf(options);
  const records = recordsFor(hostname, token, target);
  const txtRecord = records[0]!;
  const pointRecords = records.slice(1);
  const unreachable = (): DnsCheckResult => ({
    ownership: false,
    pointing: false,
    unreachable: true,
    diagnostics: [
      {
        code: "dns-unreachable",
        ok: false,
        message:
          "The DNS servers did not answer in time, so nothing was decided: the domain keeps its state. Try again in a few minutes.",
      },
    ],
  });

  const [txt, cname, v4, v6] = await Promise.all([
    ask(() => resolver.resolveTxt(txtRecord.name)),
    ask(() => resolver.resolveCname(hostname)),
    ask(() => resolver.resolve4(hostname)),
    ask(() => resolver.resolve6(hostname)),
  ]);
  if ([txt, cname, v4, v6].some((a) => !a.ok && a.code === "unreachable")) return unreachable();

  const diagnostics: DomainDiagnostic[] = [];
  const hostMissing = [cname, v4, v6].every((a) => !a.ok && a.code === "nxdomain");

  // Ownership.
  let ownership = false;
  if (txt.ok) {
    const values = txt.value.map((chunks) => chunks.join(""));
    ownership = values.some((v) => v.trim() === token);
    diagnostics.push(
      ownership
        ? { code: "txt-ok", ok: true, message: "The TXT record proves the domain is yours.", record: txtRecord }
        : {
            code: "txt-mismatch",
            ok: false,
            message: `The TXT record ${txtRecord.name} exists but does not hold this domain's code. Replace its value with the one below (quotes are fine).`,
            record: txtRecord,
            found: values,
          },
    );
  } else if (hostMissing) {
    diagnostics.push({
      code: "domain-not-found",
      ok: false,
      message: `${hostname} does not exist in DNS yet. Check the spelling; if you just registered it or added it at your DNS provider, it can take up to an hour to appear. Then create the records below.`,
      record: txtRecord,
    });
  } else {
    diagnostics.push({
      code: "txt-missing",
      ok: false,
      message: `No TXT record was found at ${txtRecord.name}. Create it at your DNS provider with the name and value below (providers that add your domain to names themselves want only the part before it).`,
      record: txtRecord,
    });
  }

  // Pointing.
  let pointing = false;
  if (!hostMissing) {
    let allowed = target.addresses;
    if (!allowed.length && target.cname) {
      const [own4, own6] = await Promise.all([
        ask(() => resolver.resolve4(target.cname!)),
        ask(() => resolver.resolve6(target.cname!)),
      ]);
      allowed = [...(own4.ok ? own4.value : []), ...(own6.ok ? own6.value.map((a) => a.toLowerCase()) : [])];
    }
    const found = [...(v4.ok ? v4.value : []), ...(v6.ok ? v6.value.map((a) => a.toLowerCase()) : [])];
    const cnameOk = cname.ok && target.cname !== null && cname.value.some((c) => sameName(c, target.cname!));
    const addressesOk = found.length > 0 && allowed.length > 0 && found.every((a) => allowed.includes(a));
    pointing = cnameOk || addressesOk;
    if (!target.cname && !target.addresses.length) {
      diagnostics.push({
        code: "pointing-unknown",
        ok: false,
        message:
          "This server does not know its public address (PUBLIC_URL, DOMAIN_CNAME_TARGET or DOMAIN_TARGET_ADDRESSES): ask its administrator to set one.",
      });
    } else if (pointing) {
      diagnostics.push({
        code: "pointing-ok",
        ok: true,
        message: `${hostname} points at this server.`,
        record: pointRecords[0],
        found: cname.ok ? cname.value : found,
      });
    } else {
      const what = cname.ok
        ? `Its CNAME names ${cname.value.join(", ")}`
        : found.length
          ? `Its addresses are ${found.join(", ")}${found.some((a) => allowed.includes(a)) ? " (remove the ones not listed below)" : ""}`
          : "It has no CNAME, A or AAAA record";
      diagnostics.push({
        code: "not-pointing",
        ok: false,
        message: `${hostname} does not point at this server yet. ${what}: set the record${pointRecords.length > 1 ? "s" : ""} below instead.`,
        record: pointRecords[0],
        found: cname.ok ? cname.value : found,
      });
    }
  }

  return { ownership, pointing, unreachable: false, diagnostics };
}
