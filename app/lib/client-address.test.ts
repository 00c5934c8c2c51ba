import { describe, expect, it } from "vitest";
import { addressKey } from "./client-address";

describe("addressKey", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(addressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey(" 198.51.100.7 ")).toBe("198.51.100.7");
  });

  it("counts every IPv6 address of one /64 as one, however it is written", () => {
    const key = "2001:db8:1:2::/64";
    expect(addressKey("2001:db8:1:2::1")).toBe(key);
    expect(addressKey("2001:0DB8:0001:0002:ffff:ffff:ffff:fffe")).toBe(key);
    expect(addressKey("2001:db8:1:2:a:b:c:d")).toBe(key);
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(key);
    expect(addressKey("2001:db8:1:2::1%eth0")).toBe(key);
    expect(addressKey("2001:db8:1:2:0:0:1.2.3.4")).toBe(key);
    expect(addressKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address it carries", () => {
    expect(addressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("::FFFF:c633:6407")).toBe("198.51.100.7");
    expect(addressKey("0:0:0:0:0:ffff:198.51.100.7")).toBe("198.51.100.7");
  });

  it("leaves anything that is not an address as it is, lower-cased", () => {
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey("")).toBe("");
    expect(addressKey("2001:db8::1::2")).toBe("2001:db8::1::2");
  });
});
