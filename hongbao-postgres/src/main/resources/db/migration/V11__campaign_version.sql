-- A rain campaign may be edited while it is scheduled (PUT /api/v1/admin/campaigns/{id}): each edit
-- replaces its rounds and prizes and raises the version, in the transaction that moves the budget's
-- difference ('campaign-edit:<id>:<version>', kind CAMPAIGN, system <-> escrow). Every campaign
-- stored before is version 1, the version whose Redis keys carry no version suffix.
ALTER TABLE campaign ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1);
