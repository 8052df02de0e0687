package hongbao.core.campaign;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The campaigns this instance has seen, kept in memory: a campaign never changes once created, so a
 * tap never needs the database after the first. Loading a campaign arms its pools and budget
 * (idempotent), which finishes the job if the instance that created it failed after its commit.
 */
public final class Campaigns {

  /** Campaigns kept; beyond that the map is cleared (a reload is only a read and an arm). */
  static final int KEPT_MAX = 10_000;

  private final CampaignStore store;
  private final Arming arming;
  private final Map<String, Campaign> known = new ConcurrentHashMap<>();

  /** Arms a campaign's pools and budget. */
  @FunctionalInterface
  public interface Arming {
    void arm(Campaign campaign);
  }

  public Campaigns(CampaignStore store, Arming arming) {
    this.store = store;
    this.arming = arming;
  }

  public Optional<Campaign> find(String id) {
    Campaign campaign = known.get(id);
    if (campaign != null) {
      return Optional.of(campaign);
    }
    Optional<Campaign> loaded = store.find(id);
    loaded.ifPresent(
        c -> {
          arming.arm(c);
          if (known.size() >= KEPT_MAX) {
            known.clear();
          }
          known.put(id, c);
        });
    return loaded;
  }

  public Campaign get(String id) {
    return find(id)
        .orElseThrow(() -> new RejectedException(Rejection.NOT_FOUND, "no campaign " + id));
  }

  Arming arming() {
    return arming;
  }

  /** A campaign this instance just created and armed. */
  void remember(Campaign campaign) {
    known.put(campaign.id(), campaign);
  }
}
