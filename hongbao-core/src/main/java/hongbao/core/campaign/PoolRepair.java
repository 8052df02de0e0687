package hongbao.core.campaign;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.function.Supplier;

/**
 * Restores the rain's prize pools from the reward book after Redis restarted, the way {@code
 * StoreRepair} restores packets from the ledger. A restart (its generation changed: a new run id, a
 * failover) may have kept an older state in which every slot is still open, so nothing on the tap
 * path notices; this pass closes and restores every campaign not yet returned ({@link
 * PrizeRecovery#restoreAfterRestart}). A slot that vanished altogether needs no pass: its first tap
 * restores it.
 *
 * <p><b>Which generation was repaired</b> is kept in Redis ({@link PrizePools#markRepaired}), for
 * every instance: Redis may have restarted while no instance ran, so an instance that starts
 * repairs unless the generation it finds was repaired already. Were that memory per instance, every
 * start (a rolling deploy, a scale-out at the peak) would close every running rain's slots until
 * its restore had read the whole reward book, and each tap meeting a closed slot would start a
 * restore of its own. A restart that kept an older state brings back the mark of an older
 * generation (a run id is new at every start), so it is repaired all the same.
 */
public final class PoolRepair {

  private static final System.Logger LOG = System.getLogger(PoolRepair.class.getName());

  static final int CAMPAIGNS_PER_PAGE = 1_000;

  private final Supplier<String> generation;
  private final CampaignStore store;
  private final Campaigns campaigns;
  private final PrizeRecovery recovery;
  private final PrizePools pools;
  private String repaired;

  public PoolRepair(
      Supplier<String> generation,
      CampaignStore store,
      Campaigns campaigns,
      PrizeRecovery recovery,
      PrizePools pools) {
    this.generation = generation;
    this.store = store;
    this.campaigns = campaigns;
    this.recovery = recovery;
    this.pools = pools;
  }

  /**
   * Repairs every campaign not yet returned if Redis's generation changed; returns wins put back.
   */
  public synchronized int checkOnce() {
    String now = generation.get();
    if (now.equals(repaired)) {
      return 0;
    }
    if (now.equals(pools.repairedGeneration())) {
      repaired = now; // by another instance, or by this one before it restarted
      return 0;
    }
    int restored = repairAll();
    // Only once every campaign was restored (a pass that failed is run again), and only if Redis
    // did not restart meanwhile: another instance may have repaired the newer generation already,
    // and marking this one over it would send every instance started later to repair again.
    if (now.equals(generation.get())) {
      pools.markRepaired(now);
    }
    repaired = now;
    if (restored > 0) {
      LOG.log(Level.WARNING, "redis generation " + now + ": put back " + restored + " rain wins");
    }
    return restored;
  }

  /**
   * One pass over every campaign not yet returned, a page at a time: the generation is marked
   * repaired after it, so a campaign left out (a running rain behind a thousand scheduled ones)
   * would keep the older state's open slots for good.
   */
  public int repairAll() {
    int restored = 0;
    String after = "";
    while (true) {
      List<String> page = store.unreturnedAfter(after, CAMPAIGNS_PER_PAGE);
      for (String id : page) {
        var campaign = campaigns.find(id);
        if (campaign.isPresent()) {
          restored += recovery.restoreAfterRestart(campaign.get());
        }
      }
      if (page.size() < CAMPAIGNS_PER_PAGE) {
        return restored;
      }
      after = page.getLast();
    }
  }
}
