/** The part of dns2 (no types of its own) the local DNS server of tests/helpers/fake-dns.ts uses. */
declare module "dns2" {
  import type { Socket } from "node:dgram";

  interface Question {
    name: string;
    type: number;
    class: number;
  }
  interface Resource {
    name: string;
    type: number;
    class: number;
    ttl: number;
    address?: string;
    domain?: string;
    data?: string | string[];
  }
  class Packet {
    static TYPE: Record<"A" | "AAAA" | "CNAME" | "TXT" | "NS" | "SOA", number>;
    static CLASS: { IN: number };
    static createResponseFromRequest(request: Packet): Packet;
    header: { id: number; rcode: number; aa: number; ra: number };
    questions: Question[];
    answers: Resource[];
    authorities: Resource[];
  }
  interface UDPServer extends Socket {
    on(event: "request", listener: (request: Packet, send: (response: Packet) => Promise<unknown>) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    listen(port: number, address: string): Promise<void>;
  }
  const dns2: { Packet: typeof Packet; createUDPServer(options: { type: "udp4" | "udp6" }): UDPServer };
  export default dns2;
}
