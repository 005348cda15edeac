-- Goods the chat records as made (ready from production) move stock out
-- of work in progress as well: wip_qty is that move, kept provisional
-- beside qty until the ERP shows the same receipt.
ALTER TABLE provisional ADD COLUMN wip_qty bigint NOT NULL DEFAULT 0;
