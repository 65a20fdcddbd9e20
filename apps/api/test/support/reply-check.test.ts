import { createDocumentChecker } from "./reply-check";
import { observedReplyProblems } from "./reply-watch";
import type { Json, JsonObject } from "./openapi-document";

/**
 * The reply checker itself, on a small document composed the way `apps/api/openapi.json` is (an error envelope pinned
 * by `allOf`, error replies as a `oneOf` of those, a resource extended by `allOf`, event envelopes whose `data.object`
 * is refined): each kind of mismatch is a problem naming the operation and the field, a conforming body is none, and
 * objects are closed where they are described, not in the parts that describe them.
 */
const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json): JsonObject => ({ description: "", content: { "application/json": { schema } } });
const pinnedError = (code: string): JsonObject => ({
  allOf: [ref("Error")],
  properties: { error: { properties: { code: { const: code } } } },
});

const DOCUMENT: JsonObject = {
  openapi: "3.1.0",
  paths: {
    "/charges": {
      post: {
        responses: {
          "201": json(ref("Charge")),
          "400": json({ oneOf: [ref("Error.validation_failed"), ref("Error.invalid_url")] }),
        },
      },
    },
    "/charges/{id}": {
      get: { responses: { "200": json(ref("Charge")), default: json(ref("Error")) } },
      delete: { responses: { "204": { description: "" } } },
    },
    "/charges/{id}/secret": { get: { responses: { "200": json(ref("ChargeWithSecret")) } } },
    "/charges/count": { get: { responses: { "200": json({ type: "integer" }) } } },
    "/docs": { get: { responses: { "200": { description: "", content: { "text/html": {} } } } } },
  },
  webhooks: {
    "charge.paid": {
      post: {
        requestBody: json({ allOf: [ref("ChargeEvent")], properties: { type: { const: "charge.paid" } } }),
      },
    },
  },
  components: {
    schemas: {
      Charge: {
        type: "object",
        required: ["id", "amount", "pix"],
        properties: {
          id: { type: "string", pattern: "^ch_" },
          amount: { type: "integer", minimum: 1 },
          pix: { type: "object", required: ["copy_paste"], properties: { copy_paste: { type: "string" } } },
          paid_at: { type: ["string", "null"], format: "date-time" },
        },
      },
      ChargeWithSecret: { allOf: [ref("Charge")], required: ["secret"], properties: { secret: { type: "string" } } },
      Error: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "string" }, message: { type: "string" }, param: { type: "string" } },
          },
        },
      },
      "Error.validation_failed": pinnedError("validation_failed"),
      "Error.invalid_url": pinnedError("invalid_url"),
      EventEnvelope: {
        type: "object",
        required: ["id", "type", "data"],
        properties: {
          id: { type: "string" },
          type: { type: "string" },
          data: {
            type: "object",
            required: ["object"],
            properties: { object: { type: "object", additionalProperties: true } },
          },
        },
      },
      ChargeEvent: {
        allOf: [ref("EventEnvelope")],
        properties: { data: { type: "object", properties: { object: ref("Charge") } } },
      },
    },
  },
};

const checker = createDocumentChecker(DOCUMENT);
const charge = () => ({ id: "ch_1", amount: 1500, pix: { copy_paste: "000201" }, paid_at: null }) as JsonObject;
const event = (object: JsonObject) => ({ id: "evt_1", type: "charge.paid", data: { object } });

describe("replyProblems", () => {
  test("when the body conforms, then there is no problem", () => {
    expect(checker.replyProblems("POST /charges", 201, charge())).toEqual([]);
  });

  test("when the body has a field the document does not name, then the problem names the operation and the field", () => {
    const body = { ...charge(), pix: { copy_paste: "000201", expires_soon: true } };

    expect(checker.replyProblems("POST /charges", 201, body)).toEqual([
      "POST /charges 201: /pix/expires_soon: not in the document (sent true)",
    ]);
  });

  test("when a field has the wrong type, then the problem names the field and the value sent", () => {
    const body = { ...charge(), pix: { copy_paste: 42 } };

    expect(checker.replyProblems("POST /charges", 201, body)).toEqual([
      "POST /charges 201: /pix/copy_paste: must be string (sent 42)",
    ]);
  });

  test("when a required field is missing, then the problem names it", () => {
    const { amount: _amount, ...body } = charge();

    expect(checker.replyProblems("POST /charges", 201, body)).toEqual([
      "POST /charges 201: /amount: missing, the document requires it",
    ]);
  });

  test("when a format is wrong, then the problem says which", () => {
    expect(checker.replyProblems("POST /charges", 201, { ...charge(), paid_at: "yesterday" })).toEqual([
      'POST /charges 201: /paid_at: must match format "date-time" (sent "yesterday")',
    ]);
  });

  test("when a resource extended by allOf has its added field, then it passes; without the extension it fails", () => {
    const withSecret = { ...charge(), secret: "s" };

    expect(checker.replyProblems("GET /charges/{id}/secret", 200, withSecret)).toEqual([]);
    expect(checker.replyProblems("GET /charges/{id}", 200, withSecret)).toEqual([
      'GET /charges/{id} 200: /secret: not in the document (sent "s")',
    ]);
  });

  test("when an error reply fits no branch of its oneOf, then the problems are those of the nearest branches", () => {
    const body = { error: { code: "invalid_url", message: "No.", hint: "x" } };

    expect(checker.replyProblems("POST /charges", 400, body)).toEqual([
      'POST /charges 400: /error/hint: not in the document (sent "x") [against Error.invalid_url]',
    ]);
    expect(checker.replyProblems("POST /charges", 400, { error: { code: "invalid_url", message: "No." } })).toEqual([]);
    expect(checker.replyProblems("POST /charges", 400, { error: { code: "gone", message: "No." } })).toEqual([
      'POST /charges 400: /error/code: must be "validation_failed" or "invalid_url" (sent "gone") ' +
        "[nearest: Error.validation_failed, Error.invalid_url]",
    ]);
  });

  test("when a status is not documented, then `default` answers for it, and without one that is the problem", () => {
    expect(checker.replyProblems("GET /charges/{id}", 404, { error: { code: "gone", message: "No." } })).toEqual([]);
    expect(checker.replyProblems("POST /charges", 500, {})).toEqual([
      "POST /charges 500: the document has no such reply (sent {})",
    ]);
  });
});

describe("webhookProblems", () => {
  test("when a webhook conforms, then there is no problem", () => {
    expect(checker.webhookProblems(event(charge()))).toEqual([]);
  });

  test("when data.object has a field its resource does not, or the envelope one it does not, then each is named", () => {
    const body = { ...event({ ...charge(), internal_note: "x" }), delivered: true };

    expect(checker.webhookProblems(body)).toEqual([
      'webhook charge.paid: /data/object/internal_note: not in the document (sent "x")',
      "webhook charge.paid: /delivered: not in the document (sent true)",
    ]);
  });

  test("when the type is not a documented webhook, then that is the problem", () => {
    expect(checker.webhookProblems({ ...event(charge()), type: "charge.lost" })).toEqual([
      'webhook charge.lost: /type: no webhook of this type in the document (sent "charge.lost")',
    ]);
  });
});

describe("operationOf", () => {
  test("when a path fits a template and a literal path, then the literal one wins; case and a trailing slash are ignored as Express ignores them", () => {
    expect(checker.operationOf("GET", "/charges/count")).toBe("GET /charges/count");
    expect(checker.operationOf("GET", "/Charges/ch_1/?expand=pix")).toBe("GET /charges/{id}");
    expect(checker.operationOf("GET", "/charges//")).toBeUndefined();
  });
});

describe("observedReplyProblems", () => {
  const reply = { method: "GET", url: "/charges/ch_1", contentType: "application/json; charset=utf-8" };

  test("when a JSON reply comes, then it is checked against its operation found by path template", () => {
    const body = JSON.stringify({ ...charge(), amount: 0 });

    expect(observedReplyProblems({ ...reply, status: 200, body }, checker)).toEqual([
      "GET /charges/{id} 200: /amount: must be >= 1 (sent 0)",
    ]);
  });

  test("when a path is not documented, then a JSON error must be the envelope and a success is a problem", () => {
    const probe = { ...reply, url: "/v2/nothing" };
    const notFound = JSON.stringify({ error: { code: "resource_not_found", message: "No." } });

    expect(observedReplyProblems({ ...probe, status: 404, body: notFound }, checker)).toEqual([]);
    expect(observedReplyProblems({ ...probe, status: 200, body: "{}" }, checker)).toEqual([
      "GET /v2/nothing 200 (no such operation): (body): a success from a route the document does not have",
    ]);
  });

  test("when a reply is documented as HTML or has no body, then it is not checked; HTML where JSON is documented is a problem", () => {
    const html = { ...reply, contentType: "text/html; charset=utf-8", body: "<p></p>" };

    expect(observedReplyProblems({ ...html, url: "/docs", status: 200 }, checker)).toEqual([]);
    expect(observedReplyProblems({ ...reply, method: "DELETE", status: 204, body: "" }, checker)).toEqual([]);
    expect(observedReplyProblems({ ...html, status: 200 }, checker)).toEqual([
      "GET /charges/{id} 200: (body): sent text/html; charset=utf-8 (7 characters), the document says application/json",
    ]);
  });
});
