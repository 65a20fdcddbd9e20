-- Whether an acquirer already delivered a notification's identity (DESIGN §5, inbound notifications), as a function
-- whose plan the session keeps. The lookup reads every week's partition of inbox_items (the identity does not name its
-- week), and planned afresh inside each INSERT of a received notification it cost about 0.3 ms of planning per
-- notification, half of what storing one cost the database. Here it is planned once per connection. Sequential scans
-- are off for that plan: a plan kept for the whole session must not cost a week's partition at the size it had when the
-- plan was made (empty, for a week made ahead), and the index on (acquirer_id, provider_event_id) answers in every
-- partition. Retention's attaching and dropping of partitions invalidates the kept plan, as any change to the table
-- does.
CREATE FUNCTION "inbox_identity_received"(acquirer text, identity text, refuted_prefix text)
RETURNS boolean LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM inbox_items i
    WHERE i.acquirer_id = acquirer AND i.signature_valid AND i.provider_event_id = identity
      AND (i.error IS NULL OR NOT starts_with(i.error, refuted_prefix))
  );
END $$;
