import { deliveryJob, deliveryJobId, deliveryJobs, destinationKey, deliveryIdsOfJob, fanOutJobId, newId } from "../src";

/** A delivery row's route, attempt 1 of the fan-out of `eventId` unless `overrides` say otherwise. */
function route(
  eventId: string,
  overrides: { attempt?: number; manual?: boolean; endpoint_id?: string; fan_out_event_id?: string } = {},
) {
  return {
    id: newId("delivery"),
    event_id: eventId,
    endpoint_id: overrides.endpoint_id ?? "we_1",
    url: "https://a.example/hook",
    attempt: overrides.attempt ?? 1,
    manual: overrides.manual ?? false,
    fan_out_event_id: overrides.fan_out_event_id ?? null,
  };
}

describe("webhook-delivery jobs", () => {
  test("when a retry's job is made, then it has no data, its destination routes it and its id turns back into the delivery id", () => {
    const retry = route(newId("event"), { attempt: 2 });

    const job = deliveryJob(retry, 1500);

    expect(job).toEqual({ data: {}, jobId: retry.id.slice(4), destination: "we_1", delayMs: 1500 });
    expect(deliveryIdsOfJob(job.jobId, job.data)).toEqual([retry.id]);
    expect(deliveryJobId(retry.id)).toBe(job.jobId);
  });

  test("when an event fans out to three destinations, then their first attempts share one job, in the event's shard, that lists them", () => {
    const eventId = newId("event");
    const rows = ["we_1", "we_2", "we_3"].map((endpoint_id) => route(eventId, { endpoint_id }));

    const jobs = deliveryJobs(rows);

    expect(jobs).toEqual([
      { data: { deliveries: rows.map((row) => row.id.slice(4)) }, jobId: fanOutJobId(eventId), destination: eventId },
    ]);
    expect(fanOutJobId(eventId)).toBe(`e${eventId.slice(4)}`);
    expect(deliveryIdsOfJob(fanOutJobId(eventId), jobs[0]!.data)).toEqual(rows.map((row) => row.id));
  });

  test("when first attempts name another event's fan-out, then they share that event's job, in its shard, with its own rows", () => {
    const [first, second, third] = [newId("event"), newId("event"), newId("event")];
    const rows = [
      route(first),
      route(second, { fan_out_event_id: first }),
      route(third, { fan_out_event_id: first, endpoint_id: "we_2" }),
    ];

    const jobs = deliveryJobs(rows);

    expect(jobs).toEqual([
      { data: { deliveries: rows.map((row) => row.id.slice(4)) }, jobId: fanOutJobId(first), destination: first },
    ]);
    // The reconciler, reading one of them alone, names the same job.
    expect(deliveryJob(rows[2]!)).toMatchObject({ jobId: fanOutJobId(first), destination: first });
    // A retry of such a row has its own job, as every retry.
    expect(deliveryJob(route(second, { fan_out_event_id: first, attempt: 2 })).destination).toBe("we_1");
  });

  test("when a first attempt is a seller's (a ping, a resend, a recovery), then it has its own job", () => {
    const eventId = newId("event");
    const [fanOut, resend] = [route(eventId), route(eventId, { manual: true })];

    expect(deliveryJobs([fanOut, resend]).map((job) => job.jobId)).toEqual([
      fanOutJobId(eventId),
      deliveryJobId(resend.id),
    ]);
  });

  test("when a delivery goes to a postback URL, then its destination is the URL's host, port included", () => {
    expect(destinationKey({ endpoint_id: null, url: "https://shop.example:8443/pix?order=1" })).toBe(
      "postback:shop.example:8443",
    );
    expect(destinationKey({ endpoint_id: null, url: "not a url" })).toBe("postback:not a url");
  });

  test("when the id is not a delivery or an event id, then making its job throws", () => {
    expect(() => deliveryJobId(newId("event"))).toThrow("not a delivery id");
    expect(() => fanOutJobId(newId("delivery"))).toThrow("not an event id");
  });
});
