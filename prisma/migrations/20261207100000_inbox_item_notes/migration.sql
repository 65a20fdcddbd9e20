-- A remark on a settled inbox item that is not an error: a due-date charge's payment a bank confirmed at another
-- amount than ours for that day (`amount_differs_from_computed: ...`), credited all the same (DESIGN §13 "Live").
ALTER TABLE "inbox_items" ADD COLUMN "note" TEXT;
