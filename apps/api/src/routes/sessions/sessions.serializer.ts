/**
 * Wire form of a session (SPEC "Session"). The token and its hash never leave.
 */
import type { Session } from "@lm/db";

/** A session as listed to its owner. */
export interface SessionView {
  id: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  /** Whether this is the session of the request. */
  current: boolean;
}

/** Serialises `session`; `currentId` is the requesting session's id. */
export function serializeSession(session: Session, currentId: string): SessionView {
  return {
    id: session.id,
    ip_address: session.ip_address,
    user_agent: session.user_agent,
    created_at: session.created_at.toISOString(),
    expires_at: session.expires_at.toISOString(),
    last_seen_at: session.last_seen_at.toISOString(),
    current: session.id === currentId,
  };
}
