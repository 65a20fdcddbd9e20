/**
 * Reading and deactivating reusable QR codes for the merchant API (DESIGN §13): always within the caller's store and
 * mode, so another store's or another mode's id reads exactly like an unknown one (404).
 */
import type { QrCode, Repositories } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/** Whether `code` is `scope`'s. */
function inScope(code: QrCode | null, scope: MerchantScope): code is QrCode {
  return code !== null && code.store_id === scope.storeId && code.mode === scope.mode;
}

/**
 * The code `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findQrCode(repos: Repositories, scope: MerchantScope, id: string): Promise<QrCode> {
  const found = isId("qrCode", id) ? await repos.qrCodes.findQrCodeById(id) : null;
  if (!inScope(found, scope)) throw notFound("QR code");
  return found;
}

/** One page of `scope`'s codes, in the page's order. */
export function listQrCodes(repos: Repositories, scope: MerchantScope, page: PageArgs): Promise<QrCode[]> {
  return repos.qrCodes.listQrCodesPage(scope, page);
}

/**
 * Deactivates code `id` of `scope`: from now on a payment to it is kept on its inbox item as an anomaly
 * (`qr_code_inactive`) and moves no money; the operator returns it. Deactivating an inactive code changes nothing.
 * @returns the code, inactive
 * @throws ApiError `resource_not_found` (unknown or foreign id)
 */
export async function deactivateQrCode(
  deps: Pick<UseCaseDeps, "repos" | "now">,
  scope: MerchantScope,
  id: string,
): Promise<QrCode> {
  const code = await findQrCode(deps.repos, scope, id);
  const deactivated = await deps.repos.qrCodes.deactivateQrCode(code.id, deps.now());
  if (deactivated === null) throw notFound("QR code");
  return deactivated;
}
