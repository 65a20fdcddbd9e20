/**
 * Operators' view of the inbound inbox (`/v1/ops/inbox`, DESIGN §5): listing, detail and reprocessing. An item's
 * status is derived: `pending` (not yet processed), `processed` (settled a charge or repeated one that did), `failed`
 * (an error: bad signature, malformed, duplicate receipt or a payment anomaly).
 */
import type { InboxItemWithAcquirer, InboxStatus, Repositories } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";
import { loadAcquirer } from "./acquirer-secrets";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { inboxJob } from "../jobs/inbox-jobs";
import { checkAcquirerSignature } from "./receive-notification";

export type { InboxItemWithAcquirer, InboxStatus } from "@lm/db";

/** One page of inbox items, optionally of one acquirer (slug) and status, in the page's order. */
export function listInboxItems(
  repos: Repositories,
  filters: { acquirer?: string; status?: InboxStatus },
  page: PageArgs,
): Promise<InboxItemWithAcquirer[]> {
  return repos.inbox.listInboxItemsPage(filters, page);
}

/**
 * Inbox item `id`.
 * @throws ApiError `resource_not_found` when it is malformed or unknown
 */
export async function findInboxItem(repos: Repositories, id: string): Promise<InboxItemWithAcquirer> {
  const found = isId("inboxItem", id) ? await repos.inbox.findInboxItemWithAcquirer(id) : null;
  if (!found) throw notFound("inbox item");
  return found;
}

/**
 * Reprocesses inbox item `id`: its stored request (the exact bytes received) is verified again with the acquirer's current secret (judging the
 * timestamp against the time of receipt, so an operator can fix a wrong secret and replay), its outcome is cleared,
 * and a valid one is enqueued again. A valid duplicate or a payment already applied changes nothing when processed.
 * @throws ApiError `resource_not_found` for an unknown item
 */
export async function reprocessInboxItem(deps: UseCaseDeps, id: string): Promise<void> {
  const item = await findInboxItem(deps.repos, id);
  const acquirer = await loadAcquirer(deps.repos, deps.config, item.acquirer.slug);
  const now = deps.now();
  const signature = checkAcquirerSignature(
    acquirer,
    { rawBody: Buffer.from(item.raw_body), headers: item.headers as Record<string, string> },
    item.received_at,
  );
  await deps.repos.inbox.resetInboxItemForReprocessing(
    id,
    { signatureValid: signature.ok, error: signature.ok ? null : signature.error },
    now,
  );
  // A fresh job id: the first job of this item may still be kept by BullMQ, which would make a same-id add a no-op.
  if (signature.ok) {
    await enqueueAfterCommit(deps, "inbox-processing", [{ ...inboxJob([id]), jobId: `${id}-r${now.getTime()}` }]);
  }
}
