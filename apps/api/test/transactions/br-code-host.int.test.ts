import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";

describe("POST /v1/transactions with the development PUBLIC_BASE_URL", () => {
  const ctx = useApiTestContext({ PUBLIC_BASE_URL: "http://localhost:3000" });
  const merchant = useTestMerchant(ctx);

  test("when a test charge is created on a host without a dot, then 201 with a valid BR Code on sandbox.localhost", async () => {
    const res = await merchant.client.post("/v1/transactions", chargeBody());

    expect(res.status).toBe(201);
    expect(isValidPixPayload(res.body.pix.copy_paste)).toBe(true);
    expect(getPixPayloadInfo(res.body.pix.copy_paste)?.url).toBe(`sandbox.localhost/qr/${res.body.txid}`);
  });
});
