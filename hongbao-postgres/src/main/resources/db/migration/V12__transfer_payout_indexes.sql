-- Every paid grab inserts one transfer row, and every index on transfer is one more write per
-- grab: the payout's cost in the database is mostly these index writes. Two of them served no
-- reader of a grab's row.

-- The surrogate id: nothing looks a transfer up by it. It stays, generated as before and so still
-- unique, and still orders a wallet's history (through the account indexes below). A transfer is
-- identified by its key (NOT NULL, unique): the key becomes the primary key in place of its
-- unique constraint, so the table keeps one without a second index to write, and it remains the
-- guard that makes every movement happen at most once (one statement, inside the migration's
-- transaction: no moment without it). Transfers are never updated or deleted.
ALTER TABLE transfer
    DROP CONSTRAINT transfer_pkey,
    DROP CONSTRAINT transfer_key_key,
    ADD CONSTRAINT transfer_pkey PRIMARY KEY (key);

-- A GRAB debits its packet's escrow, and nobody reads an escrow's debits through this index (the
-- audit reads the whole table; a packet's grabs are found by packet). Its readers page a wallet's
-- debits and sum a campaign escrow's returns, and say "kind <> 'GRAB'" to use it.
DROP INDEX transfer_by_debit_account;
CREATE INDEX transfer_by_debit_account ON transfer (debit_account, id DESC) WHERE kind <> 'GRAB';
