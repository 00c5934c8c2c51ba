import { describe, expect, it } from "vitest";
import { commonPasswords, passwordProblem } from "./password-policy";

const none = new Set<string>();

describe("passwordProblem (NIST SP 800-63B §5.1.1.2)", () => {
  it("keeps the length rule: 10 to 256 characters, counted as characters", () => {
    expect(passwordProblem("short pw", {}, none)).toBe("short");
    expect(passwordProblem("x".repeat(100) + "y".repeat(157), {}, none)).toBe("long");
    expect(passwordProblem("🐢🐇🦔🐿🦫🦦🦡🐁🐀🦝", {}, none)).toBeNull();
  });

  it("refuses entries of the shipped common-and-breached list, whatever their case", async () => {
    const common = await commonPasswords();
    for (const password of ["password12", "1234567890", "qwertyuiop", "ILOVEYOU12", "Password12"]) {
      expect(passwordProblem(password, {}, common), password).toBe("common");
    }
    expect(passwordProblem("correct horse battery", {}, common)).toBeNull();
  });

  it("refuses repetitive and sequential strings", () => {
    for (const password of ["aaaaaaaaaa", "abababababab", "abcabcabcabc", "1111122222", "abcdefghij", "9876543210"]) {
      expect(passwordProblem(password, {}, none), password).toBe("pattern");
    }
    expect(passwordProblem("1234567890", {}, none)).toBe("pattern");
    expect(passwordProblem("abcdefghik", {}, none)).toBeNull();
  });

  it("refuses the e-mail, its local part, the product's and the workspace's name, even with digits around them", () => {
    const context = { email: "Alice.Cooper@example.com", workspaceName: "Harbor Bakery" };
    for (const password of [
      "alice.cooper@example.com",
      "alicecooper",
      "Alice.Cooper2024!",
      "Atrium2024!",
      "harbor-bakery1",
    ]) {
      expect(passwordProblem(password, context, none), password).toBe("context");
    }
    expect(passwordProblem("atrium-demo-password", context, none)).toBeNull();
    expect(passwordProblem("alice wonders at the harbor", context, none)).toBeNull();
  });

  it("has no composition rules: lower-case words pass", () => {
    expect(passwordProblem("staple horse lantern", { email: "x@example.com" }, none)).toBeNull();
  });
});
