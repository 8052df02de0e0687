package hongbao.core.campaign;

import java.lang.System.Logger.Level;
import java.util.function.Supplier;

/**
 * Restores the rain's prize pools from the reward book after Redis restarted, the way {@code
 * StoreRepair} restores packets from the ledger. A restart (its generation changed: a new run id, a
 * failover) may have kept an older state in which every slot is still open, so nothing on the tap
 * path notices; this pass closes and restores every campaign not yet returned ({@link
 * PrizeRecovery#restoreAfterRestart}). It runs at the first call too: Redis may have restarted
 * while no instance ran. A slot that vanished altogether needs no pass: its first tap restores it.
 */
public final class PoolRepair {

  private static final System.Logger LOG = System.getLogger(PoolRepair.class.getName());

  static final int CAMPAIGNS_PER_PASS = 1_000;

  private final Supplier<String> generation;
  private final CampaignStore store;
  private final Campaigns campaigns;
  private final PrizeRecovery recovery;
  private String repaired;

  public PoolRepair(
      Supplier<String> generation,
      CampaignStore store,
      Campaigns campaigns,
      PrizeRecovery recovery) {
    this.generation = generation;
    this.store = store;
    this.campaigns = campaigns;
    this.recovery = recovery;
  }

  /**
   * Repairs every campaign not yet returned if Redis's generation changed; returns wins put back.
   */
  public synchronized int checkOnce() {
    String now = generation.get();
    if (now.equals(repaired)) {
      return 0;
    }
    int restored = repairAll();
    repaired = now;
    if (restored > 0) {
      LOG.log(Level.WARNING, "redis generation " + now + ": put back " + restored + " rain wins");
    }
    return restored;
  }

  /** One pass over the campaigns not yet returned. */
  public int repairAll() {
    int restored = 0;
    for (String id : store.unreturned(CAMPAIGNS_PER_PASS)) {
      var campaign = campaigns.find(id);
      if (campaign.isPresent()) {
        restored += recovery.restoreAfterRestart(campaign.get());
      }
    }
    return restored;
  }
}
