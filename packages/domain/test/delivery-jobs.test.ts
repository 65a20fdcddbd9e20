import { deliveryIdOfJob, deliveryJob, deliveryJobId, newId } from "../src";

describe("webhook-delivery jobs", () => {
  test("when a delivery's job is made, then it has no data and its id turns back into the delivery id", () => {
    const deliveryId = newId("delivery");

    const job = deliveryJob(deliveryId, 1500);

    expect(job).toEqual({ data: {}, jobId: deliveryId.slice(4), delayMs: 1500 });
    expect(deliveryIdOfJob(job.jobId)).toBe(deliveryId);
    expect(deliveryJobId(deliveryId)).toBe(job.jobId);
  });

  test("when the id is not a delivery id, then making its job throws", () => {
    expect(() => deliveryJobId(newId("event"))).toThrow("not a delivery id");
  });
});
