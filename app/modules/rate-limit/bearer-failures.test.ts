import { describe, expect, it } from "vitest";
import { clientBlock } from "./bearer-failures.server";

describe("clientBlock", () => {
  it("keeps an IPv4 address as it is, also when mapped into IPv6", () => {
    expect(clientBlock("203.0.113.9")).toBe("203.0.113.9");
    expect(clientBlock("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("groups IPv6 addresses by their /64", () => {
    expect(clientBlock("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientBlock("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientBlock("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientBlock("::1")).toBe("0:0:0:0::/64");
    expect(clientBlock("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});
