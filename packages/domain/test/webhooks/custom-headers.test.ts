import { assertCustomHeaders, maskCustomHeaders, mergeCustomHeaders } from "../../src";

describe("assertCustomHeaders", () => {
  test("when the set is within the rules, then it passes, Authorization included on https", () => {
    expect(() =>
      assertCustomHeaders({ Authorization: "Bearer t", "X-Store": "ana", "X-Empty": "" }, "https://example.com/h"),
    ).not.toThrow();
  });

  test.each([
    ["a reserved name in another case", { "CONTENT-TYPE": "x" }, "headers.CONTENT-TYPE", /set by the service/],
    ["a name of the X-Event- family", { "X-Event-Foo": "x" }, "headers.X-Event-Foo", /set by the service/],
    ["a name of the webhook- family", { "Webhook-Anything": "x" }, "headers.Webhook-Anything", /set by the service/],
    ["Authorization on http", { authorization: "x" }, "headers.authorization", /https/],
    ["two names differing in case", { "X-A": "1", "x-a": "2" }, "headers.x-a", /twice/],
    ["a value with a tab", { "X-A": "a\tb" }, "headers.X-A", /printable/],
  ])("when the set has %s, then validation_failed names the header", (_case, headers, param, message) => {
    expect(() => assertCustomHeaders(headers, "http://localhost/h")).toThrow(
      expect.objectContaining({ code: "validation_failed", param, message: expect.stringMatching(message) }),
    );
  });
});

describe("mergeCustomHeaders", () => {
  test("when a merge patch is applied, then strings set, null removes, another case replaces, the rest stay", () => {
    expect(
      mergeCustomHeaders({ "X-A": "1", "X-B": "2", "X-C": "3" }, { "X-B": null, "x-c": "33", "X-D": "4" }),
    ).toEqual({ "X-A": "1", "x-c": "33", "X-D": "4" });
  });
});

describe("maskCustomHeaders", () => {
  test("when values are masked, then 16 characters or more keep their last 4, shorter ones nothing", () => {
    expect(maskCustomHeaders({ A: "0123456789abcdef", B: "0123456789abcde", C: "" })).toEqual({
      A: "****cdef",
      B: "****",
      C: "****",
    });
  });
});
