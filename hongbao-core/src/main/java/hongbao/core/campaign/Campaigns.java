package hongbao.core.campaign;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The campaigns this instance has seen, kept in memory so that a tap does not need the database.
 * Loading a campaign (or a new version of it) arms its pools and budget (idempotent), which
 * finishes the job if the instance that created or edited it failed after its commit.
 *
 * <p><b>Why a kept copy is safe although a scheduled campaign may be edited.</b> An edit ({@link
 * CampaignStore#edit}) locks the row for update and then reads the clock: it commits only if now is
 * before the first round's start less the edit {@code lead}, and only terms that start no sooner
 * than now plus the lead. A read here notes the clock first, then reads the row locked for share,
 * so an edit in flight is waited for and none commits during the read.
 *
 * <ul>
 *   <li>A copy read at or after its start less half the lead is <em>final</em>: any edit either
 *       committed before the read (and the read shows it) or checks the clock after it, past the
 *       start less the lead, and is refused. The half is the margin for clocks: an edit is admitted
 *       on the editor's clock, a copy made final on the reader's, and a reader whose clock runs
 *       ahead would otherwise keep for good a copy an edit then replaced (its pools deleted by the
 *       edit and armed again by the reader, its budget and end the old ones). Until then a copy is
 *       read again at every refresh, as below. It is kept until the map is cleared.
 *   <li>A copy read earlier, at {@code t}, is read again once it is {@value #REFRESH_MILLIS} ms old
 *       (on the injected clock). Until then no round of it runs — its rounds start after {@code t}
 *       plus half the lead — and no round of an edit it misses runs either: that edit read its
 *       clock after this read began, so its rounds start after {@code t} plus the lead. Half the
 *       lead (30 s by default) is longer than the refresh, so an instance holding an old copy never
 *       serves a round by it; at worst a tap is told NOT_STARTED with the old start time.
 * </ul>
 *
 * The argument is about a copy and an instant no later than the copy was got: whoever uses a copy
 * reads the clock first, then gets it, and acts at that instant (a tap's phase, the closer's
 * "ended"). Read the other way round, a pause between the two could let the clock run past a
 * replaced copy's end. It holds on one clock, and across instances whose clocks agree within half
 * the lead less the refresh.
 */
public final class Campaigns {

  /** Campaigns kept; beyond that the map is cleared (a reload is only a read and an arm). */
  static final int KEPT_MAX = 10_000;

  /** How old a copy that is not final may get before it is read again. */
  static final long REFRESH_MILLIS = 1_000;

  private final CampaignStore store;
  private final Arming arming;
  private final Clock clock;
  private final Duration lead;
  private final Map<String, Kept> known = new ConcurrentHashMap<>();

  /** A copy, the clock when its read began, and whether no edit can follow it any more. */
  private record Kept(Campaign campaign, Instant readAt, boolean fin) {}

  /** Arms a campaign's pools and budget. */
  @FunctionalInterface
  public interface Arming {
    void arm(Campaign campaign);
  }

  /**
   * @param lead how long before its first round a campaign can no longer be edited (the same on
   *     every instance and in {@link CampaignService})
   */
  public Campaigns(CampaignStore store, Arming arming, Clock clock, Duration lead) {
    if (lead.toMillis() / 2 <= REFRESH_MILLIS) {
      throw new IllegalArgumentException("half the edit lead must be longer than the refresh");
    }
    this.store = store;
    this.arming = arming;
    this.clock = clock;
    this.lead = lead;
  }

  public Optional<Campaign> find(String id) {
    Instant now = clock.instant();
    Optional<Campaign> usable = kept(id, now);
    if (usable.isPresent()) {
      return usable;
    }
    Kept kept = known.get(id);
    Optional<Campaign> loaded = store.find(id);
    loaded.ifPresent(
        c -> {
          if (kept == null || kept.campaign().version() != c.version()) {
            arming.arm(c);
          }
          keep(c, now);
        });
    return loaded;
  }

  /**
   * The copy kept in memory if it may be used at {@code now} (read from the clock before this call)
   * without reading the store; empty when {@link #find} would read it. Never blocks.
   */
  public Optional<Campaign> kept(String id, Instant now) {
    Kept kept = known.get(id);
    if (kept != null && (kept.fin() || now.isBefore(kept.readAt().plusMillis(REFRESH_MILLIS)))) {
      return Optional.of(kept.campaign());
    }
    return Optional.empty();
  }

  public Campaign get(String id) {
    return find(id)
        .orElseThrow(() -> new RejectedException(Rejection.NOT_FOUND, "no campaign " + id));
  }

  Arming arming() {
    return arming;
  }

  Duration lead() {
    return lead;
  }

  /**
   * A campaign this instance just created or edited (read at {@code readAt}) and armed. A newer
   * version kept already wins over an older one, whichever read finished last.
   */
  void remember(Campaign campaign, Instant readAt) {
    keep(campaign, readAt);
  }

  /** When a copy read is final: half the lead before the start (see the class comment). */
  private Instant finalFrom(Campaign campaign) {
    return campaign.startsAt().minus(lead.dividedBy(2));
  }

  private void keep(Campaign campaign, Instant readAt) {
    if (known.size() >= KEPT_MAX) {
      known.clear();
    }
    var fresh = new Kept(campaign, readAt, !readAt.isBefore(finalFrom(campaign)));
    known.merge(
        campaign.id(),
        fresh,
        (old, next) -> old.campaign().version() > next.campaign().version() ? old : next);
  }
}
