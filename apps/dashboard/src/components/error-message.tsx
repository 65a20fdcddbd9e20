/**
 * The message of a failed call, as the API wrote it in the spec's error envelope (DESIGN §15), announced to screen
 * readers. Nothing is shown without an error, nor when the seller closed the step-up dialog.
 */
import { ApiRequestError, StepUpCancelled } from "../api/client";

/** Shows `error`'s message (the envelope's, for an API error). */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error == null || error instanceof StepUpCancelled) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" className="error">
      {message}
      {error instanceof ApiRequestError && error.requestId !== undefined ? (
        <small className="request-id"> ({error.requestId})</small>
      ) : null}
    </p>
  );
}
