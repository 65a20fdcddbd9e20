import { decideAttemptOutcome, isRetriedDeliveryError, shouldAutoDisableEndpoint, type DeliveryError } from "../../src";

const SCHEDULE = [60, 300, 1800, 7200, 43200];
const FINISHED = new Date("2026-11-21T12:00:00.000Z");
const decide = (attempt: number, error: DeliveryError | null, scheduleSeconds = SCHEDULE) =>
  decideAttemptOutcome({ attempt, error, finishedAt: FINISHED, scheduleSeconds });

describe("decideAttemptOutcome", () => {
  test.each([1, 2, 3, 4, 5, 6])("when attempt %i succeeds, then the chain ends succeeded", (attempt) => {
    expect(decide(attempt, null)).toEqual({ status: "succeeded", nextAttemptAt: null, chainEnd: "succeeded" });
  });

  test.each([
    [1, 60],
    [2, 300],
    [3, 1800],
    [4, 7200],
    [5, 43200],
  ])("when attempt %i fails with a retried error, then the next waits %i s from the failure", (attempt, seconds) => {
    expect(decide(attempt, "http_500")).toEqual({
      status: "failed",
      nextAttemptAt: new Date(FINISHED.getTime() + seconds * 1000),
      chainEnd: null,
    });
  });

  test("when the whole schedule is summed, then event to dead is about 14 h 36 min", () => {
    const total = SCHEDULE.reduce((sum, s) => sum + s, 0);
    expect(total).toBe(14 * 3600 + 36 * 60);
  });

  test.each<DeliveryError>(["http_404", "http_503", "redirect_not_followed", "timeout", "connection_error"])(
    "when attempt 6 fails with %s, then the row is dead and nothing follows",
    (error) => {
      expect(decide(6, error)).toEqual({ status: "dead", nextAttemptAt: null, chainEnd: "dead" });
    },
  );

  test.each<DeliveryError>(["endpoint_disabled", "blocked_destination", "missing_secret"])(
    "when an attempt fails with %s, then it is failed with no retry, whatever the attempt",
    (error) => {
      expect(decide(1, error)).toEqual({ status: "failed", nextAttemptAt: null, chainEnd: "stopped" });
      expect(decide(6, error)).toEqual({ status: "failed", nextAttemptAt: null, chainEnd: "stopped" });
      expect(isRetriedDeliveryError(error)).toBe(false);
    },
  );

  test("when the schedule is shortened to fractions of a second, then the delay follows it", () => {
    const decision = decide(2, "timeout", [0.2, 0.25, 0.2, 0.2, 0.2]);
    expect(decision.nextAttemptAt?.getTime()).toBe(FINISHED.getTime() + 250);
  });

  test("when the attempt or the schedule is out of range, then it throws", () => {
    expect(() => decide(0, null)).toThrow(RangeError);
    expect(() => decide(7, "http_500")).toThrow(RangeError);
    expect(() => decide(1, "http_500", [60, 300])).toThrow(RangeError);
  });
});

describe("shouldAutoDisableEndpoint", () => {
  const now = new Date("2026-11-21T12:00:00.000Z");
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);

  test.each([
    ["50 dead chains and never a success", true, { enabled: true, consecutiveDeadChains: 50, lastSucceededAt: null }],
    [
      "50 dead chains, last success 8 days ago",
      true,
      { enabled: true, consecutiveDeadChains: 50, lastSucceededAt: daysAgo(8) },
    ],
    [
      "51 dead chains, last success exactly 7 days ago",
      true,
      { enabled: true, consecutiveDeadChains: 51, lastSucceededAt: daysAgo(7) },
    ],
    ["49 dead chains and never a success", false, { enabled: true, consecutiveDeadChains: 49, lastSucceededAt: null }],
    [
      "50 dead chains, a success 6 days ago",
      false,
      { enabled: true, consecutiveDeadChains: 50, lastSucceededAt: daysAgo(6) },
    ],
    [
      "50 dead chains on a disabled endpoint",
      false,
      { enabled: false, consecutiveDeadChains: 50, lastSucceededAt: null },
    ],
  ])("when %s, then disabling is %s", (_situation, expected, endpoint) => {
    expect(shouldAutoDisableEndpoint(endpoint, now)).toBe(expected);
  });
});
