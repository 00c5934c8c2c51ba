/**
 * A local DNS server for the custom-domain tests (dns2 over UDP on a random port): the app's real
 * `node:dns` Resolver asks it (DNS_SERVERS=127.0.0.1:port), so the code path is production's with no network.
 * Zones are plain data each test sets: a name with no entry (and no name below it) is NXDOMAIN, a name with
 * an entry but not the asked type answers NOERROR with nothing (NODATA), a CNAME is followed as a recursive
 * resolver does. `silent` drops every query, as an unreachable resolver.
 */
import dns2 from "dns2";

// dns2 is CommonJS: its exports are properties of the default export.
const { Packet, createUDPServer } = dns2;

export interface FakeZone {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  TXT?: string[];
}

export interface FakeDns {
  /** `127.0.0.1:port`, for DNS_SERVERS. */
  server: string;
  records: Map<string, FakeZone>;
  set(name: string, zone: FakeZone): void;
  delete(name: string): void;
  silent: boolean;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startFakeDns(): Promise<FakeDns> {
  const records = new Map<string, FakeZone>();
  const socket = createUDPServer({ type: "udp4" });
  const dns: FakeDns = {
    server: "",
    records,
    silent: false,
    set: (name, zone) => void records.set(name.toLowerCase(), zone),
    delete: (name) => void records.delete(name.toLowerCase()),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  const exists = (name: string) => records.has(name) || [...records.keys()].some((k) => k.endsWith(`.${name}`));

  socket.on("request", (request, send) => {
    if (dns.silent) return;
    const response = Packet.createResponseFromRequest(request);
    response.header.ra = 1;
    const question = request.questions[0];
    if (!question) return void send(response);
    let name = question.name.toLowerCase().replace(/\.$/, "");
    if (!exists(name)) {
      response.header.rcode = NXDOMAIN;
      return void send(response);
    }
    const base = { class: Packet.CLASS.IN, ttl: 60 };
    // Follow CNAMEs for other types, as a recursive resolver answers (at most a few hops).
    for (let hop = 0; hop < 5; hop += 1) {
      const zone = records.get(name) ?? {};
      if (zone.CNAME && question.type !== Packet.TYPE.CNAME) {
        response.answers.push({ ...base, name, type: Packet.TYPE.CNAME, domain: zone.CNAME });
        name = zone.CNAME.toLowerCase();
        continue;
      }
      if (question.type === Packet.TYPE.CNAME && zone.CNAME) {
        response.answers.push({ ...base, name, type: Packet.TYPE.CNAME, domain: zone.CNAME });
      } else if (question.type === Packet.TYPE.A) {
        for (const address of zone.A ?? []) response.answers.push({ ...base, name, type: Packet.TYPE.A, address });
      } else if (question.type === Packet.TYPE.AAAA) {
        for (const address of zone.AAAA ?? [])
          response.answers.push({ ...base, name, type: Packet.TYPE.AAAA, address });
      } else if (question.type === Packet.TYPE.TXT) {
        for (const data of zone.TXT ?? []) response.answers.push({ ...base, name, type: Packet.TYPE.TXT, data });
      }
      break;
    }
    void send(response);
  });
  await socket.listen(0, "127.0.0.1");
  dns.server = `127.0.0.1:${socket.address().port}`;
  return dns;
}
