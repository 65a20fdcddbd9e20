-- The first attempts of the events one statement records together (a settlement's payments) share one fan-out job,
-- named by the first of those events. Each such row names that event, so that the reconciler, which offers every due
-- row under its job's id, names the same job and BullMQ ignores the offer while the job exists. Without it, a row
-- would get a second job under its own event's id, and two jobs could send it twice. Rows whose own event names
-- their job keep it null, which costs them nothing (a bit of the null bitmap the row already has).

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "fan_out_event_id" TEXT;
