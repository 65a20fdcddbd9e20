-- DropIndex
DROP INDEX "webhook_deliveries_endpoint_id_created_at_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_id_idx" ON "webhook_deliveries"("endpoint_id", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_attempted_at_status_event_ty_idx" ON "webhook_deliveries"("endpoint_id", "attempted_at", "status", "event_type");
