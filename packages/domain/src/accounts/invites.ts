/**
 * Invitations to create a seller's owner account (SPEC "Invite", DESIGN §3): a 256-bit token shown once, stored as
 * SHA-256, single use, 7 days. Expired, used, revoked and unknown invites are one and the same 404.
 */
import { randomUUID } from "node:crypto";
import type { Invite, Seller, Repositories } from "@lm/db";
import { ApiError, notFound, validationFailed } from "../errors";
import { isId } from "../ids";
import { isEmailAddress, normalizeEmail } from "../email";
import { generateToken, hashToken, isWellFormedToken } from "./credentials";

/** Life of an invite (DESIGN §3). */
export const INVITE_TTL_MS = 7 * 24 * 3_600_000;

/** The stored invite and, once, its token. */
export interface IssuedInvite {
  invite: Invite;
  seller: Seller;
  token: string;
}

/**
 * Finds the seller an operator names by id (`sel_…`) or by exact legal name (case-insensitive).
 * @throws ApiError `resource_not_found` when nothing matches; `validation_failed` (param `seller-name`) when several
 *   sellers share the name, listing their ids so the operator can pick one with `--seller`
 */
export async function findSellerForInvite(
  repos: Repositories,
  by: { sellerId?: string; sellerName?: string },
): Promise<Seller> {
  if (by.sellerId !== undefined) {
    const seller = isId("seller", by.sellerId) ? await repos.sellers.findSellerById(by.sellerId) : null;
    if (!seller) throw notFound("seller");
    return seller;
  }
  const name = by.sellerName?.trim() ?? "";
  const sellers = await repos.sellers.findSellersByLegalName(name, 10);
  if (sellers.length === 0) throw notFound("seller with that legal name");
  const [only, ...others] = sellers;
  if (!only || others.length > 0) {
    throw validationFailed(
      `Several sellers are named so: ${sellers.map((s) => s.id).join(", ")}; use --seller.`,
      "seller-name",
    );
  }
  return only;
}

/**
 * Invites `email` to become an owner of `sellerId`.
 * @throws ApiError `validation_failed` (param `email`) for a malformed address; `invalid_state` when an account
 *   with that address exists
 */
export async function createInvite(
  repos: Repositories,
  input: { email: string; seller: Seller; now: Date },
): Promise<IssuedInvite> {
  const email = normalizeEmail(input.email);
  if (!isEmailAddress(email)) throw validationFailed("Email is not a valid address.", "email");
  if (await repos.accounts.findUserByEmail(email)) {
    throw new ApiError("invalid_state", "An account with this email already exists.");
  }
  const { token, hash } = generateToken();
  const invite = await repos.accounts.insertInvite({
    id: randomUUID(),
    token_hash: hash,
    email,
    seller_id: input.seller.id,
    created_at: input.now,
    expires_at: new Date(input.now.getTime() + INVITE_TTL_MS),
  });
  return { invite, seller: input.seller, token };
}

/**
 * The active invite of `token`.
 * @throws ApiError `resource_not_found` when it is unknown, expired, used or revoked (indistinguishable, SPEC)
 */
export async function findActiveInvite(repos: Repositories, token: string, now: Date): Promise<Invite> {
  const invite = isWellFormedToken(token) ? await repos.accounts.findInviteByTokenHash(hashToken(token)) : null;
  if (!invite || invite.used_at !== null || invite.revoked_at !== null || invite.expires_at <= now)
    throw notFound("invite");
  return invite;
}

/**
 * Marks the invite used, unless another request did first.
 * @throws ApiError `resource_not_found` when it is no longer active
 */
export async function claimInvite(repos: Repositories, inviteId: string, now: Date): Promise<void> {
  if ((await repos.accounts.claimActiveInvite(inviteId, now)) !== 1) throw notFound("invite");
}
