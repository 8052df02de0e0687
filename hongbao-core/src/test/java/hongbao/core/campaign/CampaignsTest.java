package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cache of campaigns: a copy read before its start less half the edit lead is read again after
 * the refresh (and a new version armed), a copy read later is final; a lead no longer than the
 * refresh is refused, since the argument that no stale copy serves a round rests on it.
 */
class CampaignsTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");
  private static final Duration LEAD = Duration.ofSeconds(60);

  private final MovingClock clock = new MovingClock(T0);
  private final Versions store = new Versions();
  private final List<Integer> armed = new ArrayList<>();
  private final Campaigns campaigns =
      new Campaigns(store, c -> armed.add(c.version()), clock, LEAD);

  private static Campaign version(int version, Instant starts, long prizes) {
    var round =
        new Round(1, starts, Duration.ofSeconds(60), List.of(new PrizeLine("CASH", 1, prizes)), 1);
    return new Campaign("c_1", "rain", Amount.fen(1_000), List.of(round), 1, 5, T0, version);
  }

  @Test
  void aCopyReadBeforeTheLead_isReadAgainAfterTheRefresh_andANewVersionArmed() {
    store.current = version(1, T0.plusSeconds(600), 10);
    assertThat(campaigns.get("c_1").version()).isEqualTo(1);
    store.current = version(2, T0.plusSeconds(300), 20);
    clock.advance(Duration.ofMillis(Campaigns.REFRESH_MILLIS - 1));
    assertThat(campaigns.get("c_1").version()).as("within the refresh").isEqualTo(1);
    assertThat(store.reads).isEqualTo(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(campaigns.get("c_1").version()).isEqualTo(2);
    assertThat(campaigns.get("c_1").round(1).prizeCount()).isEqualTo(20);
    clock.advance(Duration.ofSeconds(1));
    campaigns.get("c_1");
    assertThat(armed).as("armed once per version").containsExactly(1, 2);
  }

  @Test
  void aCopyReadAtOrAfterItsStartLessHalfTheLead_isFinal() {
    store.current = version(1, T0.plus(LEAD.dividedBy(2)), 10);
    campaigns.get("c_1");
    clock.advance(Duration.ofHours(1));
    campaigns.get("c_1");
    assertThat(store.reads).isEqualTo(1);
  }

  /**
   * Read at its start less the lead on this instance's clock, which runs ahead of the editor's: an
   * edit the editor's clock still admits commits after the read, and the copy must not be final.
   */
  @Test
  void aCopyReadWithinHalfTheLeadAfterItsStartLessTheLead_isReadAgain_forAnEditOnAClockBehind() {
    store.current = version(1, T0.plus(LEAD), 10);
    assertThat(campaigns.get("c_1").version()).isEqualTo(1);
    // The editor's clock, a few seconds behind, still stands before the start less the lead.
    store.current = version(2, T0.plus(LEAD), 20);
    clock.advance(Duration.ofMillis(Campaigns.REFRESH_MILLIS));
    assertThat(campaigns.get("c_1").version()).isEqualTo(2);
    assertThat(armed).containsExactly(1, 2);
  }

  @Test
  void aNewerVersionKept_winsOverAnOlderRead() {
    store.current = version(1, T0.plusSeconds(600), 10);
    campaigns.remember(version(2, T0.plusSeconds(600), 10), T0);
    campaigns.remember(version(1, T0.plusSeconds(600), 10), T0);
    assertThat(campaigns.get("c_1").version()).isEqualTo(2);
  }

  @Test
  void aLeadWhoseHalfIsNoLongerThanTheRefresh_isRefused() {
    assertThatThrownBy(() -> new Campaigns(store, c -> {}, clock, Duration.ofSeconds(2)))
        .isInstanceOf(IllegalArgumentException.class);
    new Campaigns(store, c -> {}, clock, Duration.ofSeconds(3));
  }

  /** A clock that moves only when told to. */
  private static final class MovingClock extends Clock {
    private Instant now;

    MovingClock(Instant start) {
      now = start;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  /** A store holding one campaign whose current version a test replaces; counts the reads. */
  private static final class Versions implements CampaignStore {
    Campaign current;
    int reads;

    @Override
    public Optional<Campaign> find(String id) {
      reads++;
      return Optional.ofNullable(current).filter(c -> c.id().equals(id));
    }

    @Override
    public long nextNumber() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void create(Campaign campaign, IdempotencyKey key, StoredAnswer answer) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<String> createdUnder(IdempotencyKey key) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Edit edit(String id, Campaign terms, Clock clock, Duration lead, Runnable beforeCommit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<String> unreturned(int max) {
      return List.of();
    }

    @Override
    public List<String> unreturnedAfter(String afterId, int max) {
      return List.of();
    }

    @Override
    public List<String> recent(int max) {
      return List.of();
    }

    @Override
    public boolean returnUnspent(String id, Amount amount, Instant at) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Return> returned(String id) {
      return Optional.empty();
    }
  }
}
