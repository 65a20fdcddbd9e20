import { deliveryIdOfJob, deliveryJob, deliveryJobId, destinationKey, newId } from "../src";

describe("webhook-delivery jobs", () => {
  test("when a delivery's job is made, then it has no data, its destination routes it and its id turns back into the delivery id", () => {
    const deliveryId = newId("delivery");

    const job = deliveryJob({ id: deliveryId, endpoint_id: "we_1", url: "https://a.example/hook" }, 1500);

    expect(job).toEqual({ data: {}, jobId: deliveryId.slice(4), destination: "we_1", delayMs: 1500 });
    expect(deliveryIdOfJob(job.jobId)).toBe(deliveryId);
    expect(deliveryJobId(deliveryId)).toBe(job.jobId);
  });

  test("when a delivery goes to a postback URL, then its destination is the URL's host, port included", () => {
    expect(destinationKey({ endpoint_id: null, url: "https://shop.example:8443/pix?order=1" })).toBe(
      "postback:shop.example:8443",
    );
    expect(destinationKey({ endpoint_id: null, url: "not a url" })).toBe("postback:not a url");
  });

  test("when the id is not a delivery id, then making its job throws", () => {
    expect(() => deliveryJobId(newId("event"))).toThrow("not a delivery id");
  });
});
