-- A campaign's closer reads its rewards a page at a time, in tradeNo order from where the last
-- page stopped (a rain may hold millions): the index by campaign alone would have every page sort
-- the whole campaign. The index on (campaign, tradeNo) serves that order and every lookup by
-- campaign the old one served, so it takes the old one's place rather than adding a write.
--
-- Built in the migration's transaction, so that no moment lacks an index by campaign; while it
-- builds, credits of the instances still running wait for it. Where the reward table is large,
-- build it beforehand, while the old version runs:
--     CREATE INDEX CONCURRENTLY reward_by_campaign_trade ON reward (campaign_id, trade_no);
-- (check that it is valid: a concurrent build that fails leaves an invalid index behind); this
-- migration then only drops the old index. Not CONCURRENTLY here: it waits for every transaction
-- of the database, an instance waiting for the migration lock included, which deadlocks a rolling
-- start.
CREATE INDEX IF NOT EXISTS reward_by_campaign_trade ON reward (campaign_id, trade_no);

-- IF NOT EXISTS goes by the name alone: an index built by hand that failed (left invalid), is
-- still building, or has other columns would be kept, and the old index dropped with nothing to
-- take its place. Refuse that instead.
DO $$
BEGIN
  IF NOT EXISTS (
      SELECT 1 FROM pg_index
      WHERE indexrelid = to_regclass('reward_by_campaign_trade')
        AND indrelid = to_regclass('reward')
        AND indisvalid AND indisready
        AND pg_get_indexdef(indexrelid) LIKE '%USING btree (campaign_id, trade_no)') THEN
    RAISE EXCEPTION 'reward_by_campaign_trade is not a valid index on reward (campaign_id, trade_no): drop it and start again';
  END IF;
END
$$;

DROP INDEX reward_by_campaign;
